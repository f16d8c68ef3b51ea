# SPDX-License-Identifier: ISC
# nb.sh: Debian's newsboat 2.21 as a client of hearth's reader-app APIs,
# for shell tests; sourced, POSIX sh, after tests/lib/webenv.sh (which
# sets S, the scratch directory).
#
#	nb_conf FILE miniflux|feedhq URL LOGIN PASSWORD
#	n=$(nb_unread NAME FILE)	# "-x reload print-unread": the count
#	nb_tui_start NAME FILE		# the TUI in a detached tmux session
#	nb_tui_wait 'Your feeds' 15	# poll the screen, bounded
#	nb_tui_keys Enter		# tmux send-keys
#	nb_tui_stop			# q until it exits, else kill
#
# Each NAME has its own cache ($S/nb/NAME.db) and log; every run has
# HOME=$S/nb/home, so nothing of the user's own ~/.newsboat is read or
# written (2.21 makes ~/.newsboat even when -C and -c are given).
# newsboat runs under "timeout", so none outlives the test for long; in
# the TUI with --foreground, or timeout's own process group would keep
# it from reading the terminal (SIGTTIN: it hangs at its start-up
# messages).  The tmux server has its own socket in $S and reads no
# tmux.conf; nb_cleanup ends it.

NB_TMUX=
NB_SESSION=hearth-nb

# nb_check: newsboat and tmux are there; "not ok" and 1 when one is not.
nb_check() {
	for _p in newsboat tmux timeout; do
		if ! command -v "$_p" >/dev/null 2>&1; then
			nok "prerequisite: $_p not found (Debian package $_p)"
			return 1
		fi
	done
	mkdir -p "$S/nb/home" || return 1
	NB_TMUX="tmux -f /dev/null -S $S/nb/tmux.sock"
}

# nb_cleanup: end the tmux server (and with it a newsboat left running).
nb_cleanup() {
	[ -n "$NB_TMUX" ] && [ -S "$S/nb/tmux.sock" ] &&
	    $NB_TMUX kill-server 2>/dev/null
	return 0
}

# nb_conf FILE BACKEND URL LOGIN PASSWORD: a newsboat config for the
# miniflux or feedhq backend of 2.21, the password in FILE.pw (as
# hearth-api(7) suggests: -passwordfile).
nb_conf() {
	printf '%s\n' "$5" > "$1.pw"
	{
		echo "urls-source \"$2\""
		echo "$2-url \"$3\""
		echo "$2-login \"$4\""
		echo "$2-passwordfile \"$1.pw\""
		if [ "$2" = feedhq ]; then
			echo "feedhq-show-special-feeds no"
			echo "feedhq-flag-star \"s\""
		fi
		# What the tests read off the screen: no surprises.
		echo "confirm-exit no"
		echo "show-read-feeds yes"
		echo "show-read-articles yes"
		# 2.21 lists newest first with date-asc (its default)
		echo "article-sort-order date-asc"
	} > "$1"
}

# nb_unread NAME CONF: reload every feed, print the number of unread
# articles newsboat then has (nothing when it failed: its output is in
# $S/nb/NAME.out).  60 s at most.
nb_unread() {
	: > "$S/nb/urls"
	HOME=$S/nb/home timeout 60 newsboat -C "$2" -u "$S/nb/urls" \
	    -c "$S/nb/$1.db" -x reload print-unread \
	    >"$S/nb/$1.out" 2>&1 </dev/null
	sed -n 's/^\([0-9][0-9]*\) unread articles*$/\1/p' "$S/nb/$1.out" |
	    tail -n 1
}

# nb_tui_start NAME CONF: the TUI in a detached 100x30 tmux session, on
# the cache of NAME.  It runs 60 s at most.
nb_tui_start() {
	: > "$S/nb/urls"
	$NB_TMUX kill-session -t "$NB_SESSION" 2>/dev/null
	$NB_TMUX new-session -d -s "$NB_SESSION" -x 100 -y 30 \
	    "HOME=$S/nb/home LANG=C.UTF-8 TERM=screen \
	    timeout --foreground 60 newsboat -C '$2' -u '$S/nb/urls' \
	    -c '$S/nb/$1.db' 2>'$S/nb/$1.tui.err'"
}

# nb_tui_screen: the screen as text.
nb_tui_screen() {
	$NB_TMUX capture-pane -p -t "$NB_SESSION" 2>/dev/null
}

# nb_tui_wait FIXED-STRING SECONDS: poll the screen (every 0.2 s) until
# it shows the string; 1 when it did not in time.
nb_tui_wait() {
	_n=0
	while [ "$_n" -lt $(($2 * 5)) ]; do
		nb_tui_screen | grep -qF -- "$1" && return 0
		$NB_TMUX has-session -t "$NB_SESSION" 2>/dev/null || return 1
		_n=$((_n + 1))
		sleep 0.2
	done
	return 1
}

# nb_tui_keys KEY...: type keys (tmux send-keys names: Enter, q...).
nb_tui_keys() {
	$NB_TMUX send-keys -t "$NB_SESSION" "$@"
}

# nb_tui_stop: press q until newsboat has exited (5 s); kill the
# session if it has not.  0 when it exited by itself.
nb_tui_stop() {
	_n=0
	while [ "$_n" -lt 25 ]; do
		$NB_TMUX has-session -t "$NB_SESSION" 2>/dev/null || return 0
		[ $((_n % 5)) -eq 0 ] && nb_tui_keys q
		_n=$((_n + 1))
		sleep 0.2
	done
	$NB_TMUX kill-session -t "$NB_SESSION" 2>/dev/null
	return 1
}
