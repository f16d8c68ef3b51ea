#!/bin/sh
# t-web.sh: the web reader end to end, through a real nginx on 127.0.0.1
# running the shipped nginx/hearth.conf and nginx/hearth-proxy.conf, in
# front of the sanitized hearth-fcgi from $HEARTH_BIN.
#
# First the configurations alone, in front of a small FastCGI responder
# that echoes its parameters (what nginx passes, and what it refuses to
# believe); then hearth-fcgi behind them: sign-in, sessions, CSRF, two
# users kept apart, every page and action, security headers, static
# files, malformed and oversized requests, throttling, and the same
# reader under /reader/.  curl is the client; one cookie jar per user.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh

pass=0
fail=0
ok() {
	pass=$((pass + 1))
	echo "ok - $*"
}
nok() {
	fail=$((fail + 1))
	echo "not ok - $*"
}
# check WHAT COMMAND...: ok when the command succeeds.
check() {
	_w=$1
	shift
	if "$@"; then
		ok "$_w"
	else
		nok "$_w"
	fi
}

web_check || exit 1
web_scratch || exit 1

# --- helpers ---------------------------------------------------------

# req [CURL ARGS...] URL: one request; status in $code, headers in
# $S/h, body in $S/b.  Never follows redirects.
req() {
	code=$(curl -s -o "$S/b" -D "$S/h" -w '%{http_code}' --max-time 10 \
	    "$@" 2>/dev/null)
	[ -n "$code" ] || code=000
}

# hdr NAME: the value of the last header NAME of the last response.
hdr() {
	tr -d '\r' < "$S/h" | awk -v n="$1" '
		{ i = index($0, ":") }
		i > 0 && tolower(substr($0, 1, i - 1)) == tolower(n) {
			v = substr($0, i + 1); sub(/^[ \t]+/, "", v)
		}
		END { print v }'
}

# hdrs NAME: every value of header NAME, one a line.
hdrs() {
	tr -d '\r' < "$S/h" | awk -v n="$1" '
		{ i = index($0, ":") }
		i > 0 && tolower(substr($0, 1, i - 1)) == tolower(n) {
			v = substr($0, i + 1); sub(/^[ \t]+/, "", v); print v
		}'
}

# has FIXED-STRING: the last body contains it.
has() {
	grep -qF -- "$1" "$S/b"
}

# is WHAT WANT [EXTRA-TEST...]: ok when $code is WANT (and the extra
# command succeeds), else not ok with what came.
is() {
	_w=$1
	_want=$2
	shift 2
	if [ "$code" != "$_want" ]; then
		nok "$_w: status $code, want $_want"
		return 1
	fi
	if [ $# -gt 0 ] && ! "$@"; then
		nok "$_w: status $code but the check '$*' fails"
		return 1
	fi
	ok "$_w"
}

# raw REQUEST: send REQUEST (\r, \n and \0 escapes) as it is to the
# main nginx; the whole response, headers and body, in $S/raw.
raw() {
	perl -MIO::Socket::INET -e '
		my ($port, $req) = @ARGV;
		$req =~ s/\\r/\r/g;
		$req =~ s/\\n/\n/g;
		$req =~ s/\\0/\0/g;
		alarm 5;
		my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1",
		    PeerPort => $port, Proto => "tcp") or exit 1;
		print $s $req;
		binmode STDOUT;
		print while <$s>;' "${U##*:}" "$1" > "$S/raw" 2>/dev/null
}

# ---------------------------------------------------------------------
# A. The configurations alone, in front of a FastCGI echo: what reaches
# the responder.

cat > "$S/echo.pl" <<'EOF'
# A FastCGI responder that answers every request with its parameters,
# one NAME=VALUE a line, then BODY=the request body.
use strict;
use IO::Socket::UNIX;
use Socket;
my $path = shift;
unlink $path;
my $srv = IO::Socket::UNIX->new(Type => SOCK_STREAM, Local => $path,
    Listen => 16) or die "listen $path: $!\n";
$SIG{ALRM} = $SIG{TERM} = sub { unlink $path; exit 0 };
alarm 120;
sub rd {
	my ($c, $n) = @_;
	my $b = '';
	while (length($b) < $n) {
		my $r = sysread($c, $b, $n - length($b), length($b));
		return undef unless $r;
	}
	return $b;
}
sub rec {
	my ($c, $type, $id, $data) = @_;
	syswrite($c, pack('CCnnCC', 1, $type, $id, length($data), 0, 0) .
	    $data);
}
while (my $c = $srv->accept) {
	my ($params, $body, $id) = ('', '', 1);
	for (;;) {
		my $h = rd($c, 8) or last;
		my (undef, $type, $rid, $len, $pad) = unpack('CCnnC', $h);
		my $d = $len ? rd($c, $len) : '';
		rd($c, $pad) if $pad;
		$id = $rid;
		$params .= $d if $type == 4;
		$body .= $d if $type == 5;
		last if $type == 5 && $len == 0;
	}
	my (@out, $i);
	for ($i = 0; $i < length $params;) {
		my @l;
		for (1, 2) {
			my $n = ord(substr($params, $i, 1));
			if ($n & 0x80) {
				$n = unpack('N', substr($params, $i, 4)) &
				    0x7fffffff;
				$i += 4;
			} else {
				$i++;
			}
			push @l, $n;
		}
		push @out, substr($params, $i, $l[0]) . '=' .
		    substr($params, $i + $l[0], $l[1]) . "\n";
		$i += $l[0] + $l[1];
	}
	my $resp = "Status: 200 OK\r\nContent-Type: text/plain\r\n\r\n" .
	    join('', sort @out) . "BODY=$body\n" . ('#' x 600) . "\n";
	for (my $o = 0; $o < length $resp; $o += 32768) {
		rec($c, 6, $id, substr($resp, $o, 32768));
	}
	rec($c, 6, $id, '');
	rec($c, 3, $id, pack('NCCCC', 0, 0, 0, 0, 0));
	close $c;
}
EOF
perl "$S/echo.pl" "$S/echo.sock" 2>"$S/echo.log" &
echo_pid=$!
FCGI_PIDS="$FCGI_PIDS $echo_pid"
_n=0
while [ ! -S "$S/echo.sock" ] && [ "$_n" -lt 50 ]; do
	_n=$((_n + 1))
	sleep 0.1
done

# param NAME: the value the echo saw, or "(none)".
param() {
	_v=$(grep "^$1=" "$S/b" | head -n 1)
	if [ -z "$_v" ]; then
		echo "(none)"
	else
		echo "${_v#*=}"
	fi
}
# param_is NAME WANT WHAT
param_is() {
	_got=$(param "$1")
	if [ "$_got" = "$2" ]; then
		ok "$3"
	else
		nok "$3: $1 is '$_got', want '$2'"
	fi
}

ngx_hearth "$S/ne" nginx/hearth.conf "$S/echo.sock"
if NGX_PING=/ NGX_PING_STATUS=200 ngx_start "$S/ne"; then
	E=$NGX_URL
	req -H 'Authorization: Basic YWxpY2U6c2VjcmV0' \
	    -H 'X-Forwarded-For: 203.0.113.9' -H 'X-Forwarded-Proto: https' \
	    -H 'X-Forwarded-Host: evil.example' -H 'Proxy: http://evil/' \
	    "$E/reader//accounts/ClientLogin/a%2Fb?x=%41&y=1+2"
	is "hearth.conf: a request reaches the responder" 200
	param_is REQUEST_URI '/reader//accounts/ClientLogin/a%2Fb?x=%41&y=1+2' \
	    "hearth.conf: REQUEST_URI is the raw request target"
	param_is QUERY_STRING 'x=%41&y=1+2' "hearth.conf: QUERY_STRING raw"
	param_is HTTP_AUTHORIZATION 'Basic YWxpY2U6c2VjcmV0' \
	    "hearth.conf: Authorization is passed (HTTP_AUTHORIZATION)"
	param_is REMOTE_ADDR 127.0.0.1 \
	    "hearth.conf: REMOTE_ADDR is the peer, X-Forwarded-For ignored"
	param_is HTTP_X_FORWARDED_FOR 127.0.0.1 \
	    "hearth.conf: a client's X-Forwarded-For is replaced"
	param_is HTTPS '(none)' \
	    "hearth.conf: no HTTPS over http, whatever X-Forwarded-Proto says"
	param_is HTTP_X_FORWARDED_PROTO http \
	    "hearth.conf: a client's X-Forwarded-Proto is replaced"
	param_is HTTP_X_FORWARDED_HOST "127.0.0.1:${E##*:}" \
	    "hearth.conf: a client's X-Forwarded-Host is replaced"
	param_is HTTP_PROXY '(none)' "hearth.conf: no Proxy header (httpoxy)"
	param_is REQUEST_METHOD GET "hearth.conf: REQUEST_METHOD"
	case $(hdr Content-Encoding) in
	gzip)	nok "hearth.conf: gzip without Accept-Encoding" ;;
	*)	ok "hearth.conf: no gzip without Accept-Encoding" ;;
	esac
	req -H 'Accept-Encoding: gzip' "$E/"
	if [ "$(hdr Content-Encoding)" = gzip ] &&
	    hdrs Vary | grep -qi 'Accept-Encoding'; then
		ok "hearth.conf: responses are gzipped, with Vary"
	else
		nok "hearth.conf: responses are gzipped, with Vary"
	fi
	req -d 'a=1&b=2' "$E/form"
	param_is CONTENT_TYPE application/x-www-form-urlencoded \
	    "hearth.conf: CONTENT_TYPE"
	param_is CONTENT_LENGTH 7 "hearth.conf: CONTENT_LENGTH"
	param_is BODY 'a=1&b=2' "hearth.conf: the body is passed"
	req -H 'Content-Type: application/octet-stream' \
	    --data-binary @"$top/tests/lib/nginx.sh" "$E/up"
	is "hearth.conf: a body of some KB passes" 200
	ngx_stop "$S/ne"
else
	nok "hearth.conf: nginx starts with the shipped configuration"
fi

ngx_hearth "$S/npe" nginx/hearth-proxy.conf "$S/echo.sock"
if NGX_PING=/reader/ NGX_PING_STATUS=200 ngx_start "$S/npe"; then
	E=$NGX_URL
	req -H 'X-Forwarded-For: 198.51.100.1, 203.0.113.9' \
	    -H 'X-Forwarded-Proto: https' -H 'X-Forwarded-Host: news.example' \
	    -H 'Authorization: GoogleLogin auth=abc' "$E/reader/x?y=%2F"
	is "hearth-proxy.conf: /reader/ reaches the responder" 200
	param_is REQUEST_URI '/reader/x?y=%2F' \
	    "hearth-proxy.conf: REQUEST_URI keeps the prefix, raw"
	param_is REMOTE_ADDR 203.0.113.9 \
	    "hearth-proxy.conf: the client address from a trusted proxy"
	param_is HTTP_X_FORWARDED_FOR 203.0.113.9 \
	    "hearth-proxy.conf: X-Forwarded-For is the resolved client"
	param_is HTTPS on \
	    "hearth-proxy.conf: HTTPS from a trusted X-Forwarded-Proto"
	param_is REQUEST_SCHEME https "hearth-proxy.conf: REQUEST_SCHEME"
	param_is HTTP_HOST news.example \
	    "hearth-proxy.conf: Host from a trusted X-Forwarded-Host"
	param_is HTTP_AUTHORIZATION 'GoogleLogin auth=abc' \
	    "hearth-proxy.conf: Authorization is passed"
	req -H 'X-Forwarded-Host: a b.example' "$E/reader/"
	param_is HTTP_HOST "127.0.0.1:${E##*:}" \
	    "hearth-proxy.conf: a malformed X-Forwarded-Host is not used"
	param_is HTTPS '(none)' "hearth-proxy.conf: no HTTPS without the header"
	# 127.0.0.2 is loopback too, but not a listed proxy.
	if curl -s --max-time 5 --interface 127.0.0.2 -o /dev/null "$E/reader/"
	then
		req --interface 127.0.0.2 -H 'X-Forwarded-For: 203.0.113.9' \
		    -H 'X-Forwarded-Proto: https' \
		    -H 'X-Forwarded-Host: news.example' "$E/reader/"
		param_is REMOTE_ADDR 127.0.0.2 \
		    "hearth-proxy.conf: X-Forwarded-For from others ignored"
		param_is HTTPS '(none)' \
		    "hearth-proxy.conf: X-Forwarded-Proto from others ignored"
		param_is HTTP_HOST "127.0.0.1:${E##*:}" \
		    "hearth-proxy.conf: X-Forwarded-Host from others ignored"
	else
		echo "# 127.0.0.2 unusable as a source address: skipped"
	fi
	req "$E/reader"
	is "hearth-proxy.conf: /reader redirects to /reader/, relative" 301 \
	    test "$(hdr Location)" = /reader/
	req "$E/other"
	is "hearth-proxy.conf: paths outside /reader/ are 404" 404
	req "$E/healthz"
	is "hearth-proxy.conf: /healthz outside the prefix is 404" 404
	ngx_stop "$S/npe"
else
	nok "hearth-proxy.conf: nginx starts with the shipped configuration"
fi
kill -TERM "$echo_pid" 2>/dev/null
wait "$echo_pid" 2>/dev/null

# ---------------------------------------------------------------------
# B. hearth-fcgi behind hearth.conf.

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 3" \
    "login_max_failures = 4" "login_lockout = 10m"
# The same database under /reader/, for hearth-proxy.conf.
web_conf "$S/p/hearth.conf" "$S/fcgi-p.sock" "workers = 2" \
    "path_prefix = /reader/"
web_data "$S/hearth.conf" || exit 1

if start_fcgi main "$S/hearth.conf"; then
	ok "hearth-fcgi starts"
else
	nok "hearth-fcgi starts"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	ok "nginx starts with nginx/hearth.conf"
else
	nok "nginx starts with nginx/hearth.conf"
	exit 1
fi
U=$NGX_URL

# --- basics ----------------------------------------------------------

req "$U/healthz"
is "GET /healthz" 200 has ok
raw "HEAD /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
if head -n 1 "$S/raw" | grep -q ' 200 ' &&
    grep -qi '^Content-Length: 3' "$S/raw" &&
    [ -z "$(sed '1,/^\r*$/d' "$S/raw")" ]; then
	ok "HEAD /healthz: 200, the GET's Content-Length, no body"
else
	nok "HEAD /healthz: 200, the GET's Content-Length, no body"
	sed 's/^/#   /' "$S/raw"
fi
req "$U/no/such/page"
is "an unknown path is 404" 404
req -X DELETE "$U/healthz"
is "an unknown method is 405" 405 test -n "$(hdr Allow)"
req -X BREW "$U/healthz"
is "a made-up method is 405 (or 400)" 405
req -d 'x=1' "$U/healthz"
is "POST to a GET-only path is 405" 405

# --- malformed and oversized requests ---------------------------------

req "$U/healthz?x=%zz&y=%&z=%4"
is "bad percent-encoding in the query is harmless" 200 has ok
req "$U/%zz"
case $code in
400|404) ok "bad percent-encoding in the path: $code" ;;
*) nok "bad percent-encoding in the path: status $code" ;;
esac
req "$U/%00"
case $code in
400|404) ok "an encoded NUL in the path: $code" ;;
*) nok "an encoded NUL in the path: status $code" ;;
esac
q=$(awk 'BEGIN { for (i = 0; i < 1100; i++) printf "a=1&" }')
req "$U/healthz?$q"
is "1100 query parameters (over hearth's 1024) are 400" 400
raw "GET /heal\0thz HTTP/1.0\r\n\r\n"
if head -n 1 "$S/raw" | grep -q ' 400 '; then
	ok "a NUL in the request line is 400 from nginx"
else
	nok "a NUL in the request line: $(head -n 1 "$S/raw")"
fi
raw "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"
case $(head -n 1 "$S/raw") in
*" 400 "*|*" 200 "*) ok "chunked with Content-Length: no smuggling" ;;
*) nok "chunked with Content-Length: $(head -n 1 "$S/raw")" ;;
esac
q=$(awk 'BEGIN { for (i = 0; i < 20000; i++) printf "x" }')
req "$U/healthz?q=$q"
case $code in
414|400) ok "a 20 KB request line is refused by nginx ($code)" ;;
*) nok "a 20 KB request line: status $code" ;;
esac
awk 'BEGIN { for (i = 0; i < 1100; i++) printf "%1023d\n", i }' \
    > "$S/big"
req -H 'Content-Type: application/octet-stream' --data-binary @"$S/big" \
    "$U/healthz"
is "a body over client_max_body_size is 413 from nginx" 413 \
    grep -qi nginx "$S/b"

# The same nginx with a raised limit: hearth's max_body answers.
ngx_hearth "$S/nbig" nginx/hearth.conf "$S/fcgi.sock" \
    -e 's/client_max_body_size 1m;/client_max_body_size 8m;/'
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/nbig"; then
	req -H 'Content-Type: application/octet-stream' \
	    --data-binary @"$S/big" "$NGX_URL/healthz"
	is "a body over max_body (nginx limit raised) is 413 from hearth" \
	    413 has "too large"
	ngx_stop "$S/nbig"
else
	nok "nginx with client_max_body_size 8m starts"
fi

# --- static files -----------------------------------------------------

css=
req "$U/static/hearth.css"
is "static: hearth.css served by nginx" 200
case $(hdr Content-Type) in
text/css*) ok "static: Content-Type text/css" ;;
*) nok "static: Content-Type '$(hdr Content-Type)'" ;;
esac
if hdr Cache-Control | grep -q 'max-age=31536000' &&
    hdr Cache-Control | grep -q immutable; then
	ok "static: cached for a year, immutable"
else
	nok "static: Cache-Control '$(hdr Cache-Control)'"
fi
check "static: nosniff" test "$(hdr X-Content-Type-Options)" = nosniff
req -H 'Accept-Encoding: gzip' "$U/static/hearth.css"
check "static: CSS gzipped on request" test "$(hdr Content-Encoding)" = gzip
req "$U/static/hearth.js"
is "static: hearth.js served by nginx" 200 \
    sh -c "grep -qi 'javascript' '$S/h'"
req "$U/static/no-such-file.css"
is "static: a missing file is 404 from nginx, not cached" 404 \
    test -z "$(hdr Cache-Control)"
req "$U/static/"
case $code in
403|404) ok "static: no directory listing ($code)" ;;
*) nok "static: the directory answers $code" ;;
esac
req --path-as-is "$U/static/../nginx/hearth.conf"
case $code in
400|403|404) ok "static: no way out of the folder ($code)" ;;
*) nok "static: ../ answers $code" ;;
esac

# ---------------------------------------------------------------------
# C. The pages.

# @PAGES@

# ---------------------------------------------------------------------
# D. The same reader under /reader/ behind hearth-proxy.conf, as a
# tunnel reaches it.

if start_fcgi prefix "$S/p/hearth.conf"; then
	ok "prefix: hearth-fcgi with path_prefix = /reader/ starts"
else
	nok "prefix: hearth-fcgi with path_prefix = /reader/ starts"
	sed 's/^/#   /' "$S/prefix.log"
fi
ngx_hearth "$S/np" nginx/hearth-proxy.conf "$S/fcgi-p.sock"
if NGX_PING=/reader/healthz NGX_PING_STATUS=200 ngx_start "$S/np"; then
	P=$NGX_URL
	req "$P/reader/healthz"
	is "prefix: /reader/healthz" 200 has ok
	req "$P/reader/static/hearth.css"
	is "prefix: static files under /reader/static/" 200
	if hdr Cache-Control | grep -q immutable; then
		ok "prefix: static files cached for a year"
	else
		nok "prefix: static Cache-Control '$(hdr Cache-Control)'"
	fi
	req "$P/reader/static/no-such-file.js"
	is "prefix: a missing static file is 404, not cached" 404 \
	    test -z "$(hdr Cache-Control)"
	# @PREFIX_PAGES@
	ngx_stop "$S/np"
else
	nok "prefix: nginx starts with nginx/hearth-proxy.conf"
fi

# ---------------------------------------------------------------------
# E. Shutdown: both responders stop cleanly, without sanitizer reports.

ngx_stop_all
stop_fcgi main
stop_fcgi prefix

echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
