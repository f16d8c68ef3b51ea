#!/bin/sh
# SPDX-License-Identifier: ISC
# t-tls.sh: hearth-fetch over HTTPS as a real pass meets feeds: each on
# a host of its own (127.1.0.1 ...), its certificate checked against the
# system's CA bundle, and that bundle parsed once a pass, not once a
# connection (fetcher/fetch.c: libcurl keeps the store it built only
# when no CA directory is set).  The test's certificate is trusted by
# adding it to the bundle in a private mount namespace, which needs
# root (CI runs as root).

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/lib/fetchenv.sh"

bundle=/etc/ssl/certs/ca-certificates.crt
if [ "$(id -u)" -ne 0 ]; then
	echo "ok - # SKIP not root: trusting a test certificate needs a" \
	    "private mount namespace (CI runs as root)"
	exit 0
fi
for p in openssl unshare strace; do
	if ! command -v "$p" >/dev/null 2>&1; then
		notok "prerequisite: $p (Debian packages openssl, util-linux," \
		    "strace)"
		exit 1
	fi
done
if [ ! -f "$bundle" ]; then
	notok "prerequisite: $bundle (Debian package ca-certificates)"
	exit 1
fi
if ! unshare -m true 2>/dev/null; then
	notok "prerequisite: unshare -m (a private mount namespace) works here"
	exit 1
fi
fe_start

# One nginx over TLS: hosts 1 to 4 with a certificate the bundle will
# hold, host 5 with one it will not; the same names in both.
X=$scratch/tls
ngx_new "$X" || exit 1
san=IP:127.1.0.1,IP:127.1.0.2,IP:127.1.0.3,IP:127.1.0.4,IP:127.1.0.5
for c in cert other; do
	if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
	    -nodes -days 2 -subj "/CN=hearth $c" -addext "subjectAltName=$san" \
	    -keyout "$X/$c.key" -out "$X/$c.pem" >/dev/null 2>&1; then
		notok "openssl made the test's certificates"
		exit 1
	fi
done
cat "$bundle" "$X/cert.pem" > "$X/bundle.pem" || exit 1
port=$(ngx_port) || { notok "a free port"; exit 1; }
cat > "$X/http.conf" <<EOF
server {
	listen 127.1.0.1:$port ssl;
	listen 127.1.0.2:$port ssl;
	listen 127.1.0.3:$port ssl;
	listen 127.1.0.4:$port ssl;
	ssl_certificate @DIR@/cert.pem;
	ssl_certificate_key @DIR@/cert.key;
	root @DIR@/www;
}
server {
	listen 127.1.0.5:$port ssl;
	ssl_certificate @DIR@/other.pem;
	ssl_certificate_key @DIR@/other.key;
	root @DIR@/www;
}
EOF
farm_many "$X/www/f" 5 3 || { notok "feeds written"; exit 1; }
if ! ngx_start "$X"; then
	notok "nginx started with TLS"
	exit 1
fi

# tls_pass [strace]: one hearth-fetch --all in a mount namespace whose
# CA bundle trusts cert.pem, rc, T/out and T/err as pass(); with
# strace, its openat(2) and stat(2) calls in T/trace (LeakSanitizer cannot run
# under ptrace: leaks are looked for in the pass without).
tls_pass() {
	npass=$((npass + 1))
	if [ "$1" = strace ]; then
		set -- strace -f -qq -e trace=openat,stat,newfstatat -o "$T/trace"
		ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0
	fi
	ASAN_OPTIONS=$ASAN_OPTIONS timeout -s KILL 300 unshare -m sh -c \
	    'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
	    "$X/bundle.pem" "$bundle" "$@" "$fetch" -d -c "$C" --all \
	    >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	ASAN_OPTIONS=${ASAN_OPTIONS%:detect_leaks=0}
	if grep -q 'Sanitizer\|runtime error:' "$T/err"; then
		notok "tls: no sanitizer report from pass $npass"
		sed -n '1,40s/^/# /p' "$T/err"
	fi
}

fresh tls
i=1
while [ "$i" -le 5 ]; do
	feed_add "https://127.1.0.$i:$port/f/$(farm_many_name "$i")"
	i=$((i + 1))
done
tls_pass
is "$rc" 0 "tls: the pass exits 0"
is "$(q "SELECT count(*) FROM feed WHERE last_status = 200 AND
    last_error IS NULL AND url NOT LIKE 'https://127.1.0.5:%'")" 4 \
    "tls: four feeds on four hosts fetched over HTTPS"
is "$(q "SELECT count(*) FROM entry JOIN feed ON feed.id = entry.feed_id
    WHERE feed.url NOT LIKE 'https://127.1.0.5:%'")" 12 \
    "tls: their 12 entries stored"
has "$(grep 127.1.0.5 "$T/err")" 'TLS certificate problem: .*self.signed' \
    "tls: a certificate the bundle does not hold is refused"
is "$(q "SELECT count(*) FROM entry JOIN feed ON feed.id = entry.feed_id
    WHERE feed.url LIKE 'https://127.1.0.5:%'")" 0 \
    "tls: nothing stored from it"
due
tls_pass strace
is "$rc" 0 "tls: a second pass, traced, exits 0"
is "$(q "SELECT count(*) FROM feed WHERE last_status = 304 AND
    last_error IS NULL")" 4 "tls: the four asked again (304)"
is "$(grep -c "\"$bundle\"" "$T/trace")" 1 \
    "tls: the CA bundle read once for five connections"
is "$(grep -c '"/etc/ssl/certs/[0-9a-f]*\.[0-9]*"' "$T/trace")" 0 \
    "tls: and no certificate looked up in /etc/ssl/certs one by one"

fe_end
