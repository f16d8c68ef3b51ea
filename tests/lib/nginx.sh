# SPDX-License-Identifier: ISC
# nginx.sh: start, probe and stop private nginx instances on 127.0.0.1
# for shell tests; sourced, POSIX sh.
#
#	. "$HEARTH_TOP/tests/lib/nginx.sh"
#	ngx_check || exit 0			# says why, on stdout
#	trap 'ngx_stop_all; rm -rf "$scratch"' EXIT
#	trap 'exit 130' INT TERM
#	ngx_new "$scratch/ngx"			# makes the prefix
#	cat > "$scratch/ngx/server.conf" <<EOF	# what goes in server { }
#	location = /f.xml { return 410; }
#	EOF
#	ngx_start "$scratch/ngx" || exit 1	# sets NGX_PORT and NGX_URL
#	...
#	ngx_stop "$scratch/ngx"
#
# Everything an instance writes (pid file, logs, temp files) stays in its
# prefix DIR: DIR/www is the document root, DIR/logs/access.log the
# access log in the tab-separated format described at ngx_new, and
# DIR/logs/error.log the error log.  In DIR/server.conf and DIR/http.conf
# (included in http { } before the server) "@PORT@" and "@DIR@" are
# replaced by the port and DIR when the instance starts, so a location
# can proxy to another one of the same server.
#
# The port is picked at random in 20000-59999 after a bind test, so
# tests may run in parallel; if another process takes it first, another
# port is tried.  nginx listens on 127.0.0.1 only.  It runs in the
# foreground of a background "timeout" (NGX_LIFETIME seconds, 600 by
# default), so even a test killed with SIGKILL leaves no server behind
# for long.  As root nginx is told "user root;" so that its workers can
# read files under a 0700 mktemp directory.
#
# A test of a whole nginx.conf (such as the shipped nginx/hearth.conf)
# writes it as DIR/nginx.conf.in instead: it is used as it is, with
# "@PORT@" and "@DIR@" replaced, "user root;" put first as root; its
# pid file must be DIR/logs/nginx.pid.  It has no /__ngx_ping, so set
# NGX_PING to a path it answers and NGX_PING_STATUS to the status
# expected (204 by default).
#
# Needs nginx (the Debian package nginx-light is enough: the modules
# used are core, proxy, gzip, gzip_static, auth_basic, rewrite, charset
# and limit_rate), perl (perl-base, for the bind test and ngx_get) and
# coreutils' timeout.

NGX_BIN=${NGX_BIN:-}
NGX_PORT=
NGX_URL=
NGX_STARTED=

# ngx_check: find nginx; 1, with the reason on stdout as a comment, when
# it cannot be run.
ngx_check() {
	if [ -z "$NGX_BIN" ]; then
		if [ -x /usr/sbin/nginx ]; then
			NGX_BIN=/usr/sbin/nginx
		else
			NGX_BIN=$(command -v nginx 2>/dev/null) || NGX_BIN=
		fi
	fi
	if [ -z "$NGX_BIN" ] || [ ! -x "$NGX_BIN" ]; then
		echo "# nginx not found: install the Debian package nginx-light"
		NGX_BIN=
		return 1
	fi
	if ! command -v perl >/dev/null 2>&1; then
		echo "# perl not found (Debian package perl-base)"
		return 1
	fi
	if ! command -v timeout >/dev/null 2>&1; then
		echo "# timeout not found (Debian package coreutils)"
		return 1
	fi
	return 0
}

# ngx_port: print a port in 20000-59999 that 127.0.0.1 can bind now.
ngx_port() {
	perl -MIO::Socket::INET -e '
		for (1 .. 200) {
			my $p = 20000 + int(rand(40000));
			my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
			    LocalPort => $p, Proto => "tcp", Listen => 1,
			    ReuseAddr => 1) or next;
			close $s;
			print "$p\n";
			exit 0;
		}
		exit 1;'
}

# ngx_new DIR: make an instance prefix: DIR/www, DIR/logs, DIR/tmp and
# empty DIR/server.conf and DIR/http.conf.  The access log has one line
# per request, fields separated by tabs, "-" for an empty value:
#	1 $msec		request end, seconds.milliseconds
#	2 $status
#	3 $request_method
#	4 $request_uri
#	5 $http_if_none_match
#	6 $http_if_modified_since
#	7 $http_accept_encoding
#	8 $remote_user	(basic auth user, sent or not accepted)
#	9 $body_bytes_sent
#	10 $http_user_agent
#	11 $request_time
#	12 $http_authorization presence: "auth" or "-"
#	13 $http_cookie
ngx_new() {
	mkdir -p "$1/www" "$1/logs" "$1/tmp" || return 1
	: > "$1/server.conf"
	: > "$1/http.conf"
}

# ngx_conf DIR PORT: write DIR/nginx.conf for PORT.
ngx_conf() {
	_d=$1
	_p=$2
	if [ -f "$_d/nginx.conf.in" ]; then
		{
			[ "$(id -u)" -eq 0 ] && echo "user root;"
			sed -e "s|@PORT@|$_p|g" -e "s|@DIR@|$_d|g" \
			    "$_d/nginx.conf.in"
		} > "$_d/nginx.conf"
		return
	fi
	{
		[ "$(id -u)" -eq 0 ] && echo "user root;"
		cat <<EOF
worker_processes 1;
pid $_d/logs/nginx.pid;
error_log $_d/logs/error.log warn;
worker_shutdown_timeout 1s;
events {
	worker_connections 1024;
}
http {
	default_type application/octet-stream;
	types {
		text/html			html;
		text/plain			txt;
		application/rss+xml		rss;
		application/atom+xml		atom;
		text/xml			xml;
		application/json		json;
		image/x-icon			ico;
		image/png			png;
	}
	map \$http_authorization \$ngx_t_auth {
		"" "-";
		default "auth";
	}
	log_format ngx_t escape=default '\$msec	\$status	\$request_method	\$request_uri	\$http_if_none_match	\$http_if_modified_since	\$http_accept_encoding	\$remote_user	\$body_bytes_sent	\$http_user_agent	\$request_time	\$ngx_t_auth	\$http_cookie';
	access_log $_d/logs/access.log ngx_t;
	client_body_temp_path $_d/tmp/body;
	proxy_temp_path $_d/tmp/proxy;
	fastcgi_temp_path $_d/tmp/fastcgi;
	uwsgi_temp_path $_d/tmp/uwsgi;
	scgi_temp_path $_d/tmp/scgi;
	sendfile on;
	keepalive_timeout 10s;
	server_tokens off;
	include $_d/http.conf.run;
	server {
		listen 127.0.0.1:$_p;
		server_name localhost;
		root $_d/www;
		location = /__ngx_ping {
			access_log off;
			return 204;
		}
		include $_d/server.conf.run;
	}
}
EOF
	} > "$_d/nginx.conf" || return 1
	for _f in server http; do
		sed -e "s|@PORT@|$_p|g" -e "s|@DIR@|$_d|g" "$_d/$_f.conf" \
		    > "$_d/$_f.conf.run" || return 1
	done
}

# ngx_get URL [HEADER...]: one GET over HTTP/1.0 on 127.0.0.1, the
# response (status line, headers, body) on stdout; 5 s at most.  For
# probing the server and checking a test's own endpoints; the client
# under test is hearth-fetch.
ngx_get() {
	perl -MIO::Socket::INET -e '
		my ($url, @h) = @ARGV;
		$url =~ m{^http://127\.0\.0\.1:(\d+)(/.*)?$} or die "bad url\n";
		my ($port, $path) = ($1, defined $2 ? $2 : "/");
		alarm 5;
		my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1",
		    PeerPort => $port, Proto => "tcp") or exit 1;
		print $s "GET $path HTTP/1.0\r\nHost: 127.0.0.1:$port\r\n";
		print $s "$_\r\n" for @h;
		print $s "\r\n";
		binmode STDOUT;
		print while <$s>;
		exit 0;' "$@"
}

# ngx_start DIR: start the instance of DIR, wait (5 s at most) until it
# answers, set NGX_PORT and NGX_URL (also written to DIR/port).
ngx_start() {
	_d=$(cd "$1" && pwd) || return 1
	[ -n "$NGX_BIN" ] || ngx_check >/dev/null || return 1
	_try=0
	while [ "$_try" -lt 5 ]; do
		_try=$((_try + 1))
		_p=$(ngx_port) || { echo "# ngx_start: no free port"; return 1; }
		ngx_conf "$_d" "$_p" || return 1
		rm -f "$_d/logs/nginx.pid"
		timeout -s TERM "${NGX_LIFETIME:-600}" "$NGX_BIN" -p "$_d" \
		    -c "$_d/nginx.conf" -e "$_d/logs/error.log" \
		    -g 'daemon off;' </dev/null >"$_d/logs/stdout" \
		    2>"$_d/logs/stderr" &
		echo $! > "$_d/timeout.pid"
		NGX_STARTED="$NGX_STARTED $_d"
		# 5 s: 50 probes, 0.1 s apart
		_n=0
		while [ "$_n" -lt 50 ]; do
			_n=$((_n + 1))
			if ! kill -0 "$(cat "$_d/timeout.pid")" 2>/dev/null; then
				break
			fi
			if [ -s "$_d/logs/nginx.pid" ] &&
			    ngx_get "http://127.0.0.1:$_p${NGX_PING:-/__ngx_ping}" \
			    2>/dev/null | head -n 1 |
			    grep -q " ${NGX_PING_STATUS:-204} "; then
				echo "$_p" > "$_d/port"
				NGX_PORT=$_p
				NGX_URL=http://127.0.0.1:$_p
				return 0
			fi
			sleep 0.1
		done
		ngx_stop "$_d"
		if grep -q 'Address already in use' "$_d/logs/stderr" \
		    "$_d/logs/error.log" 2>/dev/null; then
			continue
		fi
		break
	done
	echo "# ngx_start: nginx did not start in $_d:"
	sed 's/^/#   /' "$_d/logs/stderr" "$_d/logs/error.log" 2>/dev/null |
	    tail -n 10
	return 1
}

# ngx_children PID: the process ids whose parent is PID.
ngx_children() {
	for _s in /proc/[0-9]*/stat; do
		awk -v p="$1" '$4 == p { print $1 }' "$_s" 2>/dev/null
	done
}

# ngx_stop DIR: stop the instance of DIR: QUIT (graceful, at most 1 s
# for open connections), then TERM, then KILL; 5 s at most.
ngx_stop() {
	_d=$1
	_t=$(cat "$_d/timeout.pid" 2>/dev/null) || return 0
	_m=$(cat "$_d/logs/nginx.pid" 2>/dev/null)
	[ -n "$_m" ] && kill -QUIT "$_m" 2>/dev/null
	_n=0
	while kill -0 "$_t" 2>/dev/null && [ "$_n" -lt 50 ]; do
		_n=$((_n + 1))
		[ "$_n" -eq 30 ] && kill -TERM "$_t" 2>/dev/null
		sleep 0.1
	done
	if kill -0 "$_t" 2>/dev/null; then
		# The master first, then its workers, by id.
		for _c in $(ngx_children "${_m:-$_t}"); do
			kill -KILL "$_c" 2>/dev/null
		done
		[ -n "$_m" ] && kill -KILL "$_m" 2>/dev/null
		kill -KILL "$_t" 2>/dev/null
	fi
	wait "$_t" 2>/dev/null
	rm -f "$_d/timeout.pid"
	return 0
}

# ngx_stop_all: stop every instance this shell started; for traps.
ngx_stop_all() {
	for _sd in $NGX_STARTED; do
		ngx_stop "$_sd"
	done
	NGX_STARTED=
}

# ngx_reload DIR: have the instance re-read its configuration (after
# editing DIR/server.conf): rewrites the .run files for its port, HUP,
# and waits until a new worker answers (up to 3 s).
ngx_reload() {
	_d=$(cd "$1" && pwd) || return 1
	_p=$(cat "$_d/port") || return 1
	ngx_conf "$_d" "$_p" || return 1
	kill -HUP "$(cat "$_d/logs/nginx.pid")" || return 1
	sleep 0.3
	_n=0
	while [ "$_n" -lt 30 ]; do
		_n=$((_n + 1))
		ngx_get "http://127.0.0.1:$_p${NGX_PING:-/__ngx_ping}" \
		    2>/dev/null | head -n 1 |
		    grep -q " ${NGX_PING_STATUS:-204} " && return 0
		sleep 0.1
	done
	return 1
}
