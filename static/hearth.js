/* SPDX-License-Identifier: ISC */
/*
 * hearth.js: keyboard shortcuts, in-place actions, marking read on
 * scroll and swipes on phones, offline reading (the service worker,
 * marks queued while offline); pages work without it
 */
(function () {
	'use strict';

	var current = -1;	/* the highlighted row of a list */
	var gPending = false;	/* "g" pressed, waiting for u, a, d, s or f */
	var gTimer = null;
	/* Where the reader is: this script is its static/hearth.js. */
	var BASE = ((document.currentScript || {}).src || '')
	    .replace(/static\/hearth\.js(\?.*)?$/, '');

	/* What j and k walk: list rows, search results, digest entries. */
	var ROWS = '.entry-row, .results .result, .digest-feed li:not(.more)';

	function rows() {
		return Array.prototype.slice.call(
		    document.querySelectorAll(ROWS));
	}

	/* The entry the keys act on: the highlighted row, or the page's. */
	function target() {
		var r = rows();

		if (current >= 0 && current < r.length)
			return r[current];
		return document.querySelector('article.entry');
	}

	function select(i) {
		var r = rows();

		if (r.length === 0)
			return;
		i = Math.max(0, Math.min(r.length - 1, i));
		if (current >= 0 && current < r.length)
			r[current].classList.remove('current');
		current = i;
		r[i].classList.add('current');
		r[i].scrollIntoView({ block: 'nearest' });
	}

	function follow(sel) {
		var a = document.querySelector(sel);

		if (a && a.href)
			window.location.href = a.href;
	}

	function openOriginal(el) {
		var url = el && el.getAttribute('data-url');

		if (url)
			window.open(url, '_blank', 'noopener,noreferrer');
	}

	/*
	 * A toggle is a form.toggle (an entry's page) or a button of the
	 * form around a list's rows, which posts to its formaction: where
	 * it posts is in action or formaction.
	 */
	function actionAttr(t) {
		return t.tagName === 'FORM' ? 'action' : 'formaction';
	}

	/* Bring every toggle of the entry el in line with the answer s. */
	function applyState(el, s) {
		var toggles = el.querySelectorAll('[data-toggle]');
		var i, t, kind, attr, base, on, button;

		el.classList.toggle('unread', !s.read);
		el.classList.toggle('starred', !!s.starred);
		for (i = 0; i < toggles.length; i++) {
			t = toggles[i];
			kind = t.getAttribute('data-toggle');
			attr = actionAttr(t);
			base = t.getAttribute(attr).replace(/[^\/]+$/, '');
			on = kind === 'read' ? s.read : s.starred;
			button = t.tagName === 'FORM' ?
			    t.querySelector('button') : t;
			if (kind === 'read') {
				t.setAttribute(attr, base +
				    (on ? 'unread' : 'read'));
				button.textContent = on ? 'Mark unread' :
				    'Mark read';
			} else {
				t.setAttribute(attr, base +
				    (on ? 'unstar' : 'star'));
				button.textContent = on ? 'Unstar' : 'Star';
			}
		}
	}

	/* The top bar's unread count and the title's "(12) ". */
	function adjustCount(delta) {
		var c = document.getElementById('unread-count');
		var n;

		if (!c || delta === 0)
			return;
		n = parseInt(c.textContent, 10);
		if (isNaN(n))
			return;
		n = Math.max(0, n + delta);
		c.textContent = String(n);
		document.title = (n > 0 ? '(' + n + ') ' : '') +
		    document.title.replace(/^\(\d+\) /, '');
	}

	/* Submit a toggle with fetch(); a normal submit if that fails. */
	function submitToggle(t) {
		var el = t.closest('[data-id]');
		var form = t.tagName === 'FORM' ? t : t.form;
		var action = t.getAttribute(actionAttr(t));
		var wasRead = /\/unread$/.test(action);
		var isReadToggle = t.getAttribute('data-toggle') === 'read';
		var answered = false;

		/* submit() ignores formaction: the form takes it on. */
		function plain() {
			form.setAttribute('action', action);
			form.submit();
		}

		if (!form)
			return;
		if (!window.fetch || !window.URLSearchParams || !el) {
			plain();
			return;
		}
		if (!navigator.onLine) {
			queueMark(el, t, form, action, plain);
			return;
		}
		fetch(action, {
			method: 'POST',
			credentials: 'same-origin',
			headers: { 'Accept': 'application/json' },
			body: new URLSearchParams(new FormData(form))
		}).then(function (res) {
			answered = true;
			if (!res.ok)
				throw new Error('HTTP ' + res.status);
			return res.json();
		}).then(function (s) {
			applyState(el, s);
			if (isReadToggle && wasRead !== s.read)
				adjustCount(s.read ? -1 : 1);
		}).catch(function () {
			/* No answer at all: offline, or the server away. */
			if (answered)
				plain();
			else
				queueMark(el, t, form, action, plain);
		});
	}

	/*
	 * Marks made offline wait in IndexedDB ("hearth", store "marks",
	 * in the order made), each with where it posts and the page's CSRF
	 * token, which the server checks when it is sent.  marks() runs
	 * fn(store) in one transaction and resolves with the result of the
	 * request fn returns.
	 */
	function marks(mode, fn) {
		return new Promise(function (resolve, reject) {
			var open = indexedDB.open('hearth', 1);

			open.onupgradeneeded = function () {
				open.result.createObjectStore('marks',
				    { keyPath: 'id', autoIncrement: true });
			};
			open.onerror = function () {
				reject(open.error);
			};
			open.onsuccess = function () {
				var db = open.result;
				var tx = db.transaction('marks', mode);
				var q = fn(tx.objectStore('marks'));

				tx.oncomplete = function () {
					db.close();
					resolve(q ? q.result : undefined);
				};
				tx.onerror = tx.onabort = function () {
					db.close();
					reject(tx.error);
				};
			};
		});
	}

	/* A line at the top of the page: offline, or what became of marks. */
	function notice(id, text) {
		var main = document.getElementById('main');
		var p = document.getElementById(id);

		if (text === null) {
			if (p)
				p.remove();
			return;
		}
		if (!p && main) {
			p = document.createElement('p');
			p.id = id;
			p.className = 'offline';
			p.setAttribute('role', 'status');
			main.insertBefore(p, main.firstChild);
		}
		if (p)
			p.textContent = text;
	}

	/* Keep the toggle t's mark for later; show it done already. */
	function queueMark(el, t, form, action, plain) {
		var tok = form.querySelector('input[name="csrf"]');
		var kind = t.getAttribute('data-toggle');
		var s = {
			read: kind === 'read' ? /\/read$/.test(action) :
			    !el.classList.contains('unread'),
			starred: kind === 'star' ? /\/star$/.test(action) :
			    el.classList.contains('starred')
		};

		if (!window.indexedDB || !tok) {
			plain();
			return;
		}
		marks('readwrite', function (st) {
			return st.add({ url: new URL(action, location.href).href,
			    csrf: tok.value });
		}).then(function () {
			applyState(el, s);
			if (kind === 'read')
				adjustCount(s.read ? -1 : 1);
			notice('offline', 'Offline: marks are kept here and' +
			    ' sent when the connection is back.');
		}, plain);
	}

	/*
	 * Send the marks made offline, oldest first, one tab at a time.
	 * One answered with an error of the request (4xx: the entry is
	 * gone, the session ended, the token is no longer right) is
	 * dropped, and the page says so; without an answer, or with a
	 * server error (5xx), it stays and the rest wait for next time.
	 */
	var sending = false;

	function sendMarks() {
		var dropped = 0;

		function next() {
			return marks('readonly', function (st) {
				return st.getAll(null, 1);
			}).then(function (m) {
				if (m.length === 0)
					return null;
				return fetch(m[0].url, {
					method: 'POST',
					credentials: 'same-origin',
					redirect: 'manual',
					headers: { 'Accept': 'application/json' },
					body: new URLSearchParams({ csrf: m[0].csrf })
				}).then(function (res) {
					if (res.status >= 500)
						throw new Error('HTTP ' + res.status);
					if (!res.ok)
						dropped++;
					return marks('readwrite', function (st) {
						return st.delete(m[0].id);
					});
				}).then(next);
			});
		}

		function run() {
			return next().catch(function () {}).then(function () {
				sending = false;
				if (dropped > 0)
					notice('marks-dropped', dropped + (dropped === 1 ?
					    ' mark' : ' marks') + ' made offline' +
					    ' could not be saved (refused by the' +
					    ' server) and were dropped.');
			});
		}

		if (sending || !navigator.onLine || !window.indexedDB ||
		    !window.fetch)
			return;
		sending = true;
		if (navigator.locks)
			navigator.locks.request('hearth-marks', run);
		else
			run();
	}

	/*
	 * Offline reading: the service worker (static/sw.js, served at the
	 * top so that it may serve every page), the marks made offline
	 * sent, the "offline" line while offline or on a kept copy
	 * (data-offline: when the worker kept it).  A signed-out page
	 * drops the marks still waiting: they were the session's.
	 */
	function offline() {
		var html = document.documentElement;
		var kept = html.getAttribute('data-offline');
		var signedIn = !!document.querySelector(
		    'form.signout input[name="csrf"]');
		var t, d;

		if ('serviceWorker' in navigator && BASE)
			navigator.serviceWorker.register(BASE + 'sw.js',
			    { scope: BASE }).catch(function () {});
		if (!window.indexedDB)
			return;
		if (!signedIn) {
			marks('readwrite', function (st) {
				return st.clear();
			}).catch(function () {});
			return;
		}
		window.addEventListener('online', function () {
			notice('offline', null);
			sendMarks();
		});
		window.addEventListener('offline', function () {
			notice('offline', 'Offline: marks are kept here and' +
			    ' sent when the connection is back.');
		});
		if (kept !== null) {
			d = new Date(kept);
			notice('offline', 'Offline: the copy kept' +
			    (isNaN(d.getTime()) ? '' : ' at ' +
			    d.toLocaleString()) + '.');
			/* Opening an entry reads it, offline too. */
			t = document.querySelector(
			    'article.entry [data-toggle="read"]');
			if (t && /\/read$/.test(t.getAttribute(actionAttr(t))))
				submitToggle(t);
		} else if (!navigator.onLine)
			notice('offline', 'Offline.');
		sendMarks();
	}

	function toggle(kind) {
		var el = target();
		var t = el && el.querySelector('[data-toggle="' + kind + '"]');

		if (t)
			submitToggle(t);
	}

	function help(show) {
		var h = document.getElementById('help');

		if (!h)
			return;
		if (show === undefined)
			show = h.hidden;
		h.hidden = !show;
	}

	function typing(t) {
		if (!t || !t.tagName)
			return false;
		if (t.isContentEditable || t.tagName === 'TEXTAREA' ||
		    t.tagName === 'SELECT')
			return true;
		return t.tagName === 'INPUT' &&
		    !/^(button|submit|checkbox|radio)$/.test(t.type);
	}

	function goTo(key) {
		var nav = { u: 'unread', a: 'all', d: 'digest', s: 'starred',
		    f: 'feeds' }[key];

		if (nav)
			follow('a[data-nav="' + nav + '"]');
	}

	/*
	 * A: the list's "Mark all as read" form, once confirmed in a box
	 * of the page's own (a dialog the CSP need not allow).
	 */
	function confirmMarkAll() {
		var form = document.querySelector('form.mark-read');
		var box, p, yes, no, n;

		if (!form || document.getElementById('confirm'))
			return;
		n = rows().length;
		box = document.createElement('div');
		box.id = 'confirm';
		box.className = 'help';
		box.innerHTML = '<div class="help-box" role="alertdialog"' +
		    ' aria-labelledby="confirm-text"><p id="confirm-text">' +
		    '</p><p class="confirm-buttons"><button type="button"' +
		    ' id="confirm-yes">Mark all read</button> <button' +
		    ' type="button" id="confirm-no">Cancel</button></p></div>';
		p = box.querySelector('#confirm-text');
		p.textContent = 'Mark ' + (n === 1 ? 'this entry' : 'these ' +
		    n + ' entries') + (form.querySelector('button')
		    .textContent.indexOf('older') >= 0 ? ' and older ones' : '') +
		    ' as read?';
		yes = box.querySelector('#confirm-yes');
		no = box.querySelector('#confirm-no');
		yes.addEventListener('click', function () {
			form.submit();
		});
		no.addEventListener('click', function () {
			box.remove();
		});
		document.body.appendChild(box);
		yes.focus();
	}

	function onKey(ev) {
		var r, el, a;

		if (ev.ctrlKey || ev.metaKey || ev.altKey)
			return;
		if (ev.key === 'Escape' && document.getElementById('confirm')) {
			document.getElementById('confirm').remove();
			ev.preventDefault();
			return;
		}
		if (typing(ev.target)) {
			if (ev.key === 'Escape')
				ev.target.blur();
			return;
		}
		if (gPending) {
			gPending = false;
			clearTimeout(gTimer);
			goTo(ev.key);
			return;
		}
		r = rows();
		switch (ev.key) {
		case 'j':
			if (r.length > 0)
				select(current + 1);
			else
				follow('a[rel="next"]');
			break;
		case 'k':
			if (r.length > 0)
				select(current < 0 ? 0 : current - 1);
			else
				follow('a[rel="prev"]');
			break;
		case 'o':
		case 'Enter':
			/* Enter on a link or button does what it does. */
			if (ev.key === 'Enter' && ev.target !== document.body)
				return;
			el = current >= 0 ? r[current] : null;
			a = el && (el.querySelector('a.row-title, h2 a') ||
			    el.querySelector('a'));
			if (a)
				window.location.href = a.href;
			break;
		case 'v':
			openOriginal(target());
			break;
		case 'm':
			toggle('read');
			break;
		case 's':
			toggle('star');
			break;
		case 'r':
			window.location.reload();
			break;
		case 'A':
			confirmMarkAll();
			break;
		case '[':
			follow('a[rel="prev"]');
			break;
		case ']':
			follow('a[rel="next"]');
			break;
		case 'g':
			gPending = true;
			gTimer = setTimeout(function () {
				gPending = false;
			}, 1500);
			break;
		case '/':
			a = document.getElementById('search-q');
			if (!a)
				return;
			a.focus();
			break;
		case '?':
			help();
			break;
		case 'Escape':
			help(false);
			break;
		default:
			return;
		}
		ev.preventDefault();
	}

	/*
	 * The sign-in form sends the browser's time zone, which a user
	 * who has none yet keeps; pages show times in the user's zone.
	 */
	function tzSuggest() {
		var f = document.querySelector(
		    'form input[type="hidden"][name="tz"]');
		var z;

		if (!f || f.value || !window.Intl)
			return;
		try {
			z = Intl.DateTimeFormat().resolvedOptions().timeZone;
		} catch (e) {
			return;
		}
		if (typeof z === 'string')
			f.value = z;
	}

	/*
	 * An enclosure's player starts where it was left (data-progress,
	 * seconds) and saves where it is (to data-save, with the page's
	 * CSRF token) when paused, every PROGRESS_EVERY seconds played,
	 * and at the end, as 0: played through, it starts over next time.
	 */
	var PROGRESS_EVERY = 30;

	function saveProgress(p, t) {
		var tok = document.querySelector('input[name="csrf"]');

		if (!window.fetch || !window.URLSearchParams || !tok ||
		    t === p.hearthSaved)
			return;
		p.hearthSaved = t;
		fetch(p.getAttribute('data-save'), {
			method: 'POST',
			credentials: 'same-origin',
			body: new URLSearchParams({ csrf: tok.value,
			    progress: String(t) })
		}).catch(function () {});
	}

	function player(p) {
		var start = parseInt(p.getAttribute('data-progress'), 10) || 0;
		var last = start;

		p.hearthSaved = start;
		p.addEventListener('loadedmetadata', function () {
			if (start > 0 && p.currentTime < 1 &&
			    !(start >= p.duration))
				p.currentTime = start;
		}, { once: true });
		p.addEventListener('pause', function () {
			if (!p.ended)
				saveProgress(p, Math.floor(p.currentTime));
		});
		p.addEventListener('ended', function () {
			saveProgress(p, 0);
		});
		p.addEventListener('timeupdate', function () {
			if (Math.abs(p.currentTime - last) >= PROGRESS_EVERY) {
				last = p.currentTime;
				saveProgress(p, Math.floor(p.currentTime));
			}
		});
	}

	/*
	 * Marking read on scroll (a setting: the list carries
	 * data-scroll-read): an unread row whose bottom went above the
	 * top of the screen, under the sticky bar, is marked read, once.
	 */
	function scrollRead() {
		var list = document.querySelector('ol.entries[data-scroll-read]');
		var pending = false;

		if (!list)
			return;
		function check() {
			var bar = document.querySelector('.top');
			var top = bar ? bar.getBoundingClientRect().bottom : 0;
			var r = list.querySelectorAll('.entry-row.unread');
			var i, t;

			pending = false;
			for (i = 0; i < r.length; i++) {
				if (r[i].getBoundingClientRect().bottom > top)
					break;
				if (r[i].hearthScrolled)
					continue;
				t = r[i].querySelector('[data-toggle="read"]');
				if (t && /\/read$/.test(t.getAttribute(
				    actionAttr(t)))) {
					r[i].hearthScrolled = true;
					submitToggle(t);
				}
			}
		}
		window.addEventListener('scroll', function () {
			if (!pending) {
				pending = true;
				window.requestAnimationFrame(check);
			}
		}, { passive: true });
	}

	/*
	 * On a touch screen, a row swiped left is marked read (or
	 * unread), swiped right starred (or not).
	 */
	var SWIPE_MIN = 80;	/* px across */
	var SWIPE_SLANT = 40;	/* px up or down at most */

	function swipes() {
		var x0 = 0, y0 = 0, row = null;

		document.addEventListener('touchstart', function (ev) {
			var t = ev.touches[0];

			row = ev.touches.length === 1 && ev.target.closest ?
			    ev.target.closest('.entry-row') : null;
			if (row) {
				x0 = t.clientX;
				y0 = t.clientY;
			}
		}, { passive: true });
		document.addEventListener('touchend', function (ev) {
			var t = ev.changedTouches[0];
			var dx, dy, b;

			if (!row || !t)
				return;
			dx = t.clientX - x0;
			dy = t.clientY - y0;
			if (Math.abs(dx) >= SWIPE_MIN &&
			    Math.abs(dy) <= SWIPE_SLANT) {
				b = row.querySelector('[data-toggle="' +
				    (dx < 0 ? 'read' : 'star') + '"]');
				if (b)
					submitToggle(b);
			}
			row = null;
		}, { passive: true });
	}

	/*
	 * A row's button is known by the event's submitter; a browser
	 * without it submits the form as it is, which works too.
	 */
	document.addEventListener('submit', function (ev) {
		var f = ev.target, t = null;

		if (!f.matches)
			return;
		if (f.matches('form.toggle'))
			t = f;
		else if (f.matches('form.rows') && ev.submitter &&
		    ev.submitter.hasAttribute('data-toggle'))
			t = ev.submitter;
		if (!t)
			return;
		ev.preventDefault();
		submitToggle(t);
	});
	Array.prototype.forEach.call(document.querySelectorAll(
	    'audio[data-save], video[data-save]'), player);
	document.addEventListener('keydown', onKey);
	document.addEventListener('click', function (ev) {
		if (ev.target.id === 'help-close' || ev.target.id === 'help')
			help(false);
	});
	/* On a phone the menu scrolls sideways: show where we are. */
	(function () {
		var nav = document.querySelector('.nav');
		var cur = nav && nav.querySelector('[aria-current="page"]');

		if (cur && nav.scrollWidth > nav.clientWidth)
			nav.scrollLeft = cur.offsetLeft - nav.offsetLeft - 16;
	}());
	tzSuggest();
	scrollRead();
	swipes();
	offline();
}());
