# SPDX-License-Identifier: ISC
# Makefile: hearth's programs, tests, fuzzers and docs.  GNU make, no
# configure step.  Everything built goes under build/.

VERSION =	0.1.0

PREFIX ?=	/usr/local
BINDIR ?=	$(PREFIX)/bin
MANDIR ?=	$(PREFIX)/share/man
SHAREDIR ?=	$(PREFIX)/share/hearth
DESTDIR ?=
PKG_CONFIG ?=	pkg-config
CC ?=		cc
FUZZ_CC ?=	clang
B =		build

UNAME_S :=	$(shell uname -s)
ifeq ($(UNAME_S),Darwin)
# Homebrew keeps sqlite, libxml2 and curl out of the default paths;
# point pkg-config at them.
BREW :=		$(shell brew --prefix 2>/dev/null || echo /opt/homebrew)
export PKG_CONFIG_PATH := $(BREW)/opt/sqlite/lib/pkgconfig:$(BREW)/opt/libxml2/lib/pkgconfig:$(BREW)/opt/curl/lib/pkgconfig:$(PKG_CONFIG_PATH)
else
OS_CPPFLAGS =	-D_GNU_SOURCE
endif

PKGS =		sqlite3 libxml-2.0 libcurl jansson
PKG_CFLAGS :=	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null || \
		    echo -I/usr/include/libxml2)
PKG_LIBS :=	$(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || \
		    echo -lsqlite3 -lxml2 -lcurl -ljansson)
# hearth-fcgi links only what it uses: no libxml2 (hearthctl reads OPML
# uploads for it) and no libcurl, whether or not the linker drops unused
# libraries by itself (--as-needed).
FCGI_PKGS =	sqlite3 jansson
FCGI_PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(FCGI_PKGS) 2>/dev/null || \
		    echo -lsqlite3 -ljansson)

# libc probes: use the system's strlcpy, strtonum and explicit_bzero
# where it has them.
# (\043 is "#", which GNU make 4.3 and later would keep escaped.)
probe =		$(shell printf '\043include <stdlib.h>\n\043include <string.h>\nint main(void){%s;return 0;}\n' '$(1)' | \
		    $(CC) $(OS_CPPFLAGS) -x c -o /dev/null - 2>/dev/null && echo $(2))
HAVE :=		$(call probe,char b[2];strlcpy(b,"a",2),-DHAVE_STRLCPY) \
		$(call probe,const char *e;strtonum("1",0,1,&e),-DHAVE_STRTONUM) \
		$(call probe,char b[2];explicit_bzero(b,2),-DHAVE_EXPLICIT_BZERO)

WARNINGS =	-Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes \
		-Wmissing-declarations -Wshadow -Wpointer-arith -Wcast-qual \
		-Wsign-compare -Wformat=2
WERROR ?=	-Werror
CFLAGS ?=	-O2 -g
# HEARTH_TEST_HOOKS: the test build's hooks (a parse child told to break
# out of its sandbox); the release build has none.
SAN_CFLAGS =	-g -O1 -fno-omit-frame-pointer \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-DHEARTH_TEST_HOOKS
ALL_CPPFLAGS =	$(OS_CPPFLAGS) $(HAVE) -DHEARTH_VERSION='"$(VERSION)"' \
		-DHEARTH_SHAREDIR='"$(SHAREDIR)"' \
		-Ilib $(PKG_CFLAGS) $(CPPFLAGS)
LIBS =		$(PKG_LIBS) -lpthread -lm
FCGI_ALL_LIBS =	$(FCGI_PKG_LIBS) -lpthread -lm

GEN_SQL =	$(B)/gen/migrations.c
LIB_SRC =	$(filter-out %_test.c,$(wildcard lib/*.c)) $(GEN_SQL)
FETCH_SRC =	$(filter-out %_test.c,$(wildcard fetcher/*.c))
CTL_SRC =	$(filter-out %_test.c,$(wildcard ctl/*.c))
FCGI_SRC =	$(filter-out %_test.c,$(wildcard fcgi/*.c))
UNIT_SRC =	$(wildcard lib/*_test.c fetcher/*_test.c ctl/*_test.c fcgi/*_test.c)
FUZZ_SRC =	$(filter-out fuzz/replay.c,$(wildcard fuzz/*.c))
MAN =		$(wildcard man/*.[1-9])

PROGS =		hearth-fetch hearthctl $(if $(FCGI_SRC),hearth-fcgi)

# Objects of a program's own folder that tests and fuzzers may link: all
# but main.o.
nomain =	$(filter-out %/main.o,$(1))

# The compiler and flags of the last build, in build/flags: objects
# depend on it, so another PREFIX (compiled in) or CFLAGS rebuilds them.
FLAGS_NOW :=	$(subst ',,$(CC) $(CFLAGS) $(ALL_CPPFLAGS))
ifneq ($(FLAGS_NOW),$(shell cat $(B)/flags 2>/dev/null))
$(shell mkdir -p $(B) && printf '%s\n' '$(FLAGS_NOW)' > $(B)/flags)
endif

# --- the release build: build/rel/ ------------------------------------

REL =		$(B)/rel
REL_CFLAGS =	$(CFLAGS) $(WARNINGS) $(WERROR)

all: $(addprefix $(B)/,$(PROGS))

# sql/schema.sql and sql/migrate/*.sql as C strings, for libhearth.a.
$(GEN_SQL): scripts/embed-sql sql/schema.sql $(wildcard sql/migrate/*.sql)
	@mkdir -p $(@D)
	sh scripts/embed-sql sql/schema.sql sql/migrate/*.sql >$@.tmp
	mv $@.tmp $@

$(REL)/%.o: %.c $(B)/flags
	@mkdir -p $(@D)
	$(CC) $(REL_CFLAGS) $(ALL_CPPFLAGS) -MMD -MP -c -o $@ $<

$(REL)/libhearth.a: $(LIB_SRC:%.c=$(REL)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/hearth-fetch: $(FETCH_SRC:%.c=$(REL)/%.o) $(REL)/libhearth.a
	$(CC) $(REL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/hearthctl: $(CTL_SRC:%.c=$(REL)/%.o) $(REL)/libhearth.a
	$(CC) $(REL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/hearth-fcgi: $(FCGI_SRC:%.c=$(REL)/%.o) $(REL)/libhearth.a
	$(CC) $(REL_CFLAGS) $(LDFLAGS) -o $@ $^ $(FCGI_ALL_LIBS)

# --- the sanitized build for tests: build/san/ ------------------------

SAN =		$(B)/san
SAN_ALL =	$(SAN_CFLAGS) $(WARNINGS) $(WERROR)
SAN_FETCH =	$(call nomain,$(FETCH_SRC:%.c=$(SAN)/%.o))
SAN_CTL =	$(call nomain,$(CTL_SRC:%.c=$(SAN)/%.o))
SAN_FCGI =	$(call nomain,$(FCGI_SRC:%.c=$(SAN)/%.o))

$(SAN)/%.o: %.c $(B)/flags
	@mkdir -p $(@D)
	$(CC) $(SAN_ALL) $(ALL_CPPFLAGS) -MMD -MP -c -o $@ $<

$(SAN)/libhearth.a: $(LIB_SRC:%.c=$(SAN)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(SAN)/hearth-fetch: $(FETCH_SRC:%.c=$(SAN)/%.o) $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)

$(SAN)/hearthctl: $(CTL_SRC:%.c=$(SAN)/%.o) $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)

$(SAN)/hearth-fcgi: $(FCGI_SRC:%.c=$(SAN)/%.o) $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(FCGI_ALL_LIBS)

# A unit test links its own folder's objects (less main) and the library.
$(SAN)/lib/%_test: $(SAN)/lib/%_test.o $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)
$(SAN)/fetcher/%_test: $(SAN)/fetcher/%_test.o $(SAN_FETCH) $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)
$(SAN)/ctl/%_test: $(SAN)/ctl/%_test.o $(SAN_CTL) $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)
$(SAN)/fcgi/%_test: $(SAN)/fcgi/%_test.o $(SAN_FCGI) $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)

# tests/fcgi-client: one FastCGI request through hearthctl doctor's
# client, for the golden page tests (tests/t-golden.sh).
$(SAN)/tests/fcgi-client.o: ALL_CPPFLAGS += -Ictl
$(SAN)/tests/fcgi-client: $(SAN)/tests/fcgi-client.o $(SAN)/ctl/fcgi_client.o \
    $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)

# tests/seal: the stored form of a feed password or a Fever key under a
# secret file, for tests that write them into a database themselves.
$(SAN)/tests/seal: $(SAN)/tests/seal.o $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)

# Fuzz targets replayed over their corpus by a plain main (no clang
# needed): build/san/fuzz/NAME.  They link the fetcher's objects and
# the library.
$(SAN)/fuzz/%: $(SAN)/fuzz/%.o $(SAN)/fuzz/replay.o $(SAN_FETCH) \
    $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)
# The FastCGI reader is hearth-fcgi's.
$(SAN)/fuzz/fastcgi: $(SAN)/fuzz/fastcgi.o $(SAN)/fuzz/replay.o \
    $(SAN)/fcgi/conn.o $(SAN)/libhearth.a
	$(CC) $(SAN_ALL) $(LDFLAGS) -o $@ $^ $(LIBS)

SAN_BINS =	$(addprefix $(SAN)/,$(PROGS)) $(SAN)/tests/fcgi-client \
		$(SAN)/tests/seal \
		$(patsubst %.c,$(SAN)/%,$(UNIT_SRC)) \
		$(patsubst %.c,$(SAN)/%,$(FUZZ_SRC))

# --- checks -----------------------------------------------------------

# check installs missing packages first (scripts/deps), then builds and
# runs everything in a fresh make, so pkg-config sees what was installed.
check:
	sh scripts/deps check
	$(MAKE) test

test: $(SAN_BINS)
	sh tests/run $(TESTS)

# san: what make test runs, built but not run.
san: $(SAN_BINS)

# mutate: break the code one line at a time (tests/mutants/*.mut) in a
# copy under build/mutate/ and run the tests each mutant names; every
# mutant must be killed.  Not part of check: it takes an hour or so.
# MUTANTS=WORD runs only the mutants whose name contains WORD.
mutate:
	sh scripts/deps check
	sh tests/mutate $(MUTANTS)

# The programs' sources, not tests or fuzzers, for cppcheck's
# unusedFunction (whole-program: every file in one run).
LINT_SRC =	$(filter-out $(GEN_SQL),$(LIB_SRC)) $(FETCH_SRC) $(CTL_SRC) \
		$(FCGI_SRC)

lint:
	sh scripts/licence
	mandoc -Tlint -Werror $(MAN)
	cppcheck --quiet --error-exitcode=1 --std=c99 \
	    --suppress=missingIncludeSystem -Ilib lib fetcher ctl $(wildcard fcgi)
	cppcheck --quiet --error-exitcode=1 --std=c99 --enable=unusedFunction \
	    --suppress=missingIncludeSystem \
	    --suppress-xml=scripts/lint-unused.xml -Ilib $(LINT_SRC)

# --- fuzzing with libFuzzer: build/fuzz/ ------------------------------

FZ =		$(B)/fuzz
FZ_CFLAGS =	-g -O1 -fsanitize=fuzzer-no-link,address,undefined \
		-fno-sanitize-recover=all
FUZZ_TIME ?=	600

$(FZ)/%.o: %.c $(B)/flags
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_CFLAGS) $(ALL_CPPFLAGS) -MMD -MP -c -o $@ $<

$(FZ)/fuzz-%: $(FZ)/fuzz/%.o $(call nomain,$(FETCH_SRC:%.c=$(FZ)/%.o)) \
    $(LIB_SRC:%.c=$(FZ)/%.o)
	$(FUZZ_CC) $(FZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)
$(FZ)/fuzz-fastcgi: $(FZ)/fuzz/fastcgi.o $(FZ)/fcgi/conn.o \
    $(LIB_SRC:%.c=$(FZ)/%.o)
	$(FUZZ_CC) $(FZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

fuzz-build: $(patsubst fuzz/%.c,$(FZ)/fuzz-%,$(FUZZ_SRC))

# Each target runs FUZZ_TIME seconds on a scratch copy of its corpus;
# new inputs land in build/fuzz/corpus-NAME, crashes in build/fuzz/.
fuzz: fuzz-build
	sh fuzz/run $(FUZZ_TIME) $(patsubst fuzz/%.c,%,$(FUZZ_SRC))

# run: the whole reader on 127.0.0.1:$(PORT) (default 8080), in the
# foreground: packages, build, var/, nginx, hearth-fcgi, a fetch every 5 min.
run:
	@if command -v python3 >/dev/null 2>&1; then \
		python3 scripts/foreground.py sh scripts/run; \
	else \
		sh scripts/run; \
	fi

# --- benchmarks (not part of check) ----------------------------------

# bench: every benchmark in one go, one table in bench/RESULTS.md
# (BENCH_QUICK=1: a smoke run on a small database, a few minutes).
bench:
	sh scripts/deps bench
	$(MAKE) $(B)/hearth-fcgi $(B)/hearth-fetch $(B)/hearthctl
	BENCH_QUICK=$(BENCH_QUICK) sh bench/run.sh

bench-parse: $(B)/hearth-fetch
	sh bench/parse.sh

bench-fetch: $(B)/hearth-fetch $(B)/hearthctl
	sh bench/fetch.sh

bench-web: $(B)/hearth-fcgi $(B)/hearthctl $(B)/hearth-fetch
	sh bench/web.sh

# --- install ----------------------------------------------------------

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man5 \
	    $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR)/man8 \
	    $(DESTDIR)$(SHAREDIR)
	install -m 755 $(addprefix $(B)/,$(PROGS)) $(DESTDIR)$(BINDIR)
	for m in $(MAN); do \
		s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s; \
	done
	for d in sql nginx static contrib; do \
		[ -d $$d ] || continue; \
		find $$d -type d -exec install -d $(DESTDIR)$(SHAREDIR)/{} \; ; \
		find $$d -type f -exec install -m 644 {} $(DESTDIR)$(SHAREDIR)/{} \; ; \
	done

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,hearth-fetch hearthctl hearth-fcgi)
	for m in $(MAN); do \
		s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; \
	done
	rm -rf $(DESTDIR)$(SHAREDIR)

clean:
	rm -rf $(B)

.PHONY: all check test san mutate run lint fuzz fuzz-build bench bench-parse bench-fetch bench-web install \
	uninstall clean
.PRECIOUS: $(SAN)/%.o $(FZ)/%.o
.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)
