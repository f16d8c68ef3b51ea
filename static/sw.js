/* SPDX-License-Identifier: ISC */
/*
 * sw.js: the service worker: keeps the unread list, its entries and the
 * static files for reading offline
 *
 * Pages: network first, the kept copy when the network fails.  Only the
 * first page of the unread list and entry pages are kept (KEPT_MAX
 * entries at most), in one cache per session (PAGES + a digest of the
 * page's CSRF token): a page of another session deletes the others
 * before it is kept, and a signed-out page (the sign-in page, after
 * signing out or when the session ended) deletes them all.  Kept: GETs
 * answered 200 with a signed-in HTML page, never a redirect, an error,
 * a POST or an API's answer.  Each time the unread list is kept, the
 * entries it shows are fetched ahead ("Purpose: prefetch": the server
 * does not mark them read) when not kept yet or kept as read (since
 * marked unread), and so are the static files it names.
 *
 * Static files named with a version (?v=, the start of their SHA-256):
 * cache first, as they never change.
 */
'use strict';

var PAGES = 'hearth-pages-';	/* + the session's key */
var STATIC = 'hearth-static';
var KEPT_MAX = 100;		/* entry pages kept */
var READ = /\/unread" data-toggle="read"/;	/* an entry page, read */
/* A signed-in page's sign-out form (fcgi/layout.c), with its token. */
var SIGNOUT = new RegExp('<form class="signout" method="post"' +
    ' action="[^"]*"><input type="hidden" name="csrf" value="([^"]+)"');
var SCOPE = new URL(self.registration.scope);

/*
 * The path under the scope, without its "/" ("" is the unread list);
 * null outside it.
 */
function rel(url) {
	var u = new URL(url);

	if (u.origin !== SCOPE.origin ||
	    u.pathname.indexOf(SCOPE.pathname) !== 0)
		return null;
	return u.pathname.slice(SCOPE.pathname.length);
}

function isEntry(url) {
	return /^entry\/\d+$/.test(rel(url));
}

/* The pages kept: the unread list's first page and entries, no other. */
function keepable(url) {
	return (rel(url) === '' && new URL(url).search === '') ||
	    isEntry(url);
}

function hex(buf) {
	return Array.prototype.map.call(new Uint8Array(buf), function (x) {
		return (x + 0x100).toString(16).slice(1);
	}).join('');
}

/*
 * The session a page belongs to: the start of the SHA-256 of the CSRF
 * token of its top bar's sign-out form (each session has its own), or
 * '' for a signed-out page (the sign-in form's token is no session's).
 */
function sessionOf(html) {
	var m = SIGNOUT.exec(html);

	if (!m)
		return Promise.resolve('');
	return crypto.subtle.digest('SHA-256',
	    new TextEncoder().encode(m[1])).then(function (d) {
		return hex(d).slice(0, 16);
	});
}

/* Delete the pages kept for any session but key; all of them for ''. */
function forget(key) {
	return caches.keys().then(function (names) {
		return Promise.all(names.filter(function (n) {
			return n.indexOf(PAGES) === 0 && n !== PAGES + key;
		}).map(function (n) {
			return caches.delete(n);
		}));
	});
}

/* The cache of the pages kept, if any (there is one at most). */
function pagesCache() {
	return caches.keys().then(function (names) {
		var n = names.filter(function (x) {
			return x.indexOf(PAGES) === 0;
		})[0];

		return n ? caches.open(n) : null;
	});
}

/*
 * Look at a page's answer: forget the other sessions' pages, keep this
 * one if it may be.  Resolves to { key, html, cache } for a kept page,
 * else null.
 */
function keep(url, res) {
	var type = res.headers.get('Content-Type') || '';

	if (res.status !== 200 || res.type !== 'basic' || res.redirected ||
	    type.indexOf('text/html') !== 0)
		return Promise.resolve(null);
	return res.text().then(function (html) {
		return sessionOf(html).then(function (key) {
			return forget(key).then(function () {
				if (key === '' || !keepable(url))
					return null;
				return caches.open(PAGES + key);
			}).then(function (c) {
				var h = new Headers();

				if (!c)
					return null;
				/* The page's own security headers stay. */
				['Content-Type', 'Content-Security-Policy',
				    'Referrer-Policy', 'X-Frame-Options',
				    'Date'].forEach(function (k) {
					if (res.headers.has(k))
						h.set(k, res.headers.get(k));
				});
				return (isEntry(url) ? c.delete(url,
				    { ignoreSearch: true }) : Promise.resolve())
				    .then(function () {
					return c.put(url, new Response(html,
					    { headers: h }));
				}).then(function () {
					return { key: key, html: html, cache: c };
				});
			});
		});
	});
}

/* The URLs of attribute values in html that match re, unescaped. */
function links(html, re) {
	var out = [], m;

	while ((m = re.exec(html)) !== null)
		out.push(new URL(m[1].replace(/&amp;/g, '&'), SCOPE).href);
	return out;
}

/*
 * The unread list was kept: fetch ahead the entries it shows that are
 * not kept yet, or kept as read, and the static files it names; let go
 * of the oldest entries beyond KEPT_MAX and of the static files no
 * longer named.
 */
function ahead(k) {
	var entries = links(k.html,
	    /<a class="row-title" href="([^"]+)"/g).slice(0, KEPT_MAX);
	var assets = links(k.html,
	    /(?:href|src)="([^"]*\/static\/[^"?]+\?v=[^"]+)"/g);

	function one(i) {
		if (i >= entries.length)
			return Promise.resolve();
		return k.cache.match(entries[i], { ignoreSearch: true })
		    .then(function (hit) {
			return hit ? hit.text() : '';
		}).then(function (html) {
			/* Kept and unread, as the list says it is: fresh. */
			if (html !== '' && !READ.test(html))
				return null;
			return fetch(entries[i], { credentials: 'same-origin',
			    headers: { 'Purpose': 'prefetch' },
			    redirect: 'manual' }).then(function (res) {
				return keep(entries[i], res);
			});
		}).then(function () {
			return one(i + 1);
		});
	}

	return one(0).then(function () {
		return k.cache.keys();
	}).then(function (reqs) {
		var shown = entries.map(function (u) {
			return rel(u);
		});
		var old = reqs.filter(function (q) {
			return isEntry(q.url) && shown.indexOf(rel(q.url)) < 0;
		});
		var over = reqs.length - 1 - KEPT_MAX;

		return Promise.all(old.slice(0, Math.max(0, over))
		    .map(function (q) {
			return k.cache.delete(q);
		}));
	}).then(function () {
		return caches.open(STATIC);
	}).then(function (c) {
		return c.keys().then(function (reqs) {
			return Promise.all(reqs.filter(function (q) {
				return assets.indexOf(q.url) < 0;
			}).map(function (q) {
				return c.delete(q);
			}));
		}).then(function () {
			return Promise.all(assets.map(function (u) {
				return c.match(u).then(function (hit) {
					return hit ? null : c.add(u);
				});
			}));
		});
	});
}

/* A kept page, marked as such (data-offline, its date), or an error. */
function kept(req) {
	return pagesCache().then(function (c) {
		return c ? c.match(req, { ignoreSearch: isEntry(req.url) }) :
		    null;
	}).then(function (hit) {
		var h;

		if (!hit)
			return Response.error();
		h = new Headers(hit.headers);
		return hit.text().then(function (html) {
			return new Response(html.replace('<html ',
			    '<html data-offline="' +
			    (h.get('Date') || '').replace(/"/g, '') + '" '),
			    { headers: h });
		});
	});
}

function page(ev) {
	var req = ev.request;
	var res = fetch(req);

	ev.waitUntil(res.then(function (r) {
		return keep(req.url, r.clone());
	}).then(function (k) {
		if (k && rel(req.url) === '')
			return ahead(k);
		return null;
	}).catch(function () {}));
	return res.catch(function () {
		return kept(req);
	});
}

function asset(req) {
	return caches.open(STATIC).then(function (c) {
		return c.match(req).then(function (hit) {
			return hit || fetch(req).then(function (res) {
				if (res.status === 200)
					c.put(req, res.clone());
				return res;
			});
		});
	});
}

self.addEventListener('fetch', function (ev) {
	var req = ev.request;
	var p = rel(req.url);

	if (req.method !== 'GET' || p === null)
		return;		/* the network's, untouched */
	if (req.mode === 'navigate')
		ev.respondWith(page(ev));
	else if (/^static\/[^\/]+$/.test(p) &&
	    new URL(req.url).searchParams.has('v'))
		ev.respondWith(asset(req));
});

self.addEventListener('install', function () {
	self.skipWaiting();
});

/* Take the open pages over, and keep the unread list at once. */
self.addEventListener('activate', function (ev) {
	ev.waitUntil(self.clients.claim().then(function () {
		return fetch(SCOPE.href, { credentials: 'same-origin',
		    redirect: 'manual' });
	}).then(function (res) {
		return keep(SCOPE.href, res);
	}).then(function (k) {
		return k ? ahead(k) : null;
	}).catch(function () {}));
});
