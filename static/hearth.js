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

	/* Bring every toggle of the entry el in line with the answer s. */
	function applyState(el, s) {
		var forms = el.querySelectorAll('form.toggle');
		var i, f, kind, base, on, button;

		el.classList.toggle('unread', !s.read);
		el.classList.toggle('starred', !!s.starred);
		for (i = 0; i < forms.length; i++) {
			f = forms[i];
			kind = f.getAttribute('data-toggle');
			base = f.getAttribute('action').replace(/[^\/]+$/, '');
			on = kind === 'read' ? s.read : s.starred;
			button = f.querySelector('button');
			if (kind === 'read') {
				f.setAttribute('action', base +
				    (on ? 'unread' : 'read'));
				button.textContent = on ? 'Mark unread' :
				    'Mark read';
			} else {
				f.setAttribute('action', base +
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

	/* Submit a toggle form with fetch(); a normal submit if that fails. */
	function submitToggle(form) {
		var el = form.closest('[data-id]');
		var action = form.getAttribute('action');
		var wasRead = /\/unread$/.test(action);
		var isReadForm = form.getAttribute('data-toggle') === 'read';

		if (!window.fetch || !window.URLSearchParams || !el) {
			form.submit();
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
			if (isReadForm && wasRead !== s.read)
				adjustCount(s.read ? -1 : 1);
		}).catch(function () {
			form.submit();
		});
	}

	function toggle(kind) {
		var el = target();
		var f = el && el.querySelector(
		    'form.toggle[data-toggle="' + kind + '"]');

		if (f)
			submitToggle(f);
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

	document.addEventListener('submit', function (ev) {
		var f = ev.target;

		if (!f.matches || !f.matches('form.toggle'))
			return;
		ev.preventDefault();
		submitToggle(f);
	});
	document.addEventListener('keydown', onKey);
	document.addEventListener('click', function (ev) {
		if (ev.target.id === 'help-close' || ev.target.id === 'help')
			help(false);
	});
	localTimes();
}());
