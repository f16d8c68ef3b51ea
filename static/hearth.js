/* SPDX-License-Identifier: ISC */
/* hearth.js: keyboard shortcuts and in-place actions; pages work without it */
(function () {
	'use strict';

	var current = -1;	/* the highlighted row of a list */
	var gPending = false;	/* "g" pressed, waiting for u, s or f */
	var gTimer = null;

	function rows() {
		return Array.prototype.slice.call(
		    document.querySelectorAll('.entry-row'));
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

	function adjustCount(delta) {
		var c = document.getElementById('unread-count');
		var n;

		if (!c || delta === 0)
			return;
		n = parseInt(c.textContent, 10);
		if (!isNaN(n))
			c.textContent = String(Math.max(0, n + delta));
	}

	/* Submit a toggle with fetch(); a normal submit if that fails. */
	function submitToggle(t) {
		var el = t.closest('[data-id]');
		var form = t.tagName === 'FORM' ? t : t.form;
		var action = t.getAttribute(actionAttr(t));
		var wasRead = /\/unread$/.test(action);
		var isReadToggle = t.getAttribute('data-toggle') === 'read';

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
		fetch(action, {
			method: 'POST',
			credentials: 'same-origin',
			headers: { 'Accept': 'application/json' },
			body: new URLSearchParams(new FormData(form))
		}).then(function (res) {
			if (!res.ok)
				throw new Error('HTTP ' + res.status);
			return res.json();
		}).then(function (s) {
			applyState(el, s);
			if (isReadToggle && wasRead !== s.read)
				adjustCount(s.read ? -1 : 1);
		}).catch(plain);
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
		var nav = { u: 'unread', s: 'starred', f: 'feeds' }[key];

		if (nav)
			follow('a[data-nav="' + nav + '"]');
	}

	function onKey(ev) {
		var r, el, a;

		if (ev.ctrlKey || ev.metaKey || ev.altKey)
			return;
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
			a = el && el.querySelector('a.row-title');
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

	/* Show times in the reader's own time zone on hover. */
	function localTimes() {
		var t = document.querySelectorAll('time[datetime]');
		var i, d;

		for (i = 0; i < t.length; i++) {
			d = new Date(t[i].getAttribute('datetime'));
			if (!isNaN(d.getTime()))
				t[i].title = d.toLocaleString();
		}
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
	localTimes();
}());
