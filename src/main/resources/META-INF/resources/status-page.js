// leasehold status page. Reads GET /spool, /lease, /drain, /stats, /schedules and /items?state=claimed|scheduled|retrying|failed
// every 2 s while the tab is shown; POSTs retries. Every value is put in the page as text (textContent, dataset), never as HTML:
// ids and reasons are user data.
'use strict';
(function () {
  const REFRESH_MS = 2000;
  const READ_TIMEOUT_MS = 10000; // a read not answered by then counts as failed; the loop goes on
  const THROUGHPUT_WINDOW_MS = 60000;
  const LISTED = 100; // items shown per table (GET /items' default limit)

  const $ = (id) => document.getElementById(id);
  const auth = window.LeaseholdAuth; // reads and POSTs with the token once the service asks for one
  let timer = null;
  let doneSamples = []; // {at, done}: successive done counts, for done per minute
  let busy = false; // a retry is running: its buttons stay disabled

  // ---- rendering, text only -------------------------------------------------------------------------

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function setText(id, value) {
    $(id).textContent = value === undefined || value === null || value === '' ? '—' : String(value);
  }

  function duration(ms) {
    const s = Math.round(Math.abs(ms) / 1000);
    if (s < 60) return s + ' s';
    const m = Math.floor(s / 60);
    if (m < 60) return m + ' min ' + (s % 60) + ' s';
    const h = Math.floor(m / 60);
    if (h < 48) return h + ' h ' + (m % 60) + ' min';
    return Math.floor(h / 24) + ' d ' + (h % 24) + ' h';
  }

  /** "2026-12-06 14:03:07 UTC": the zone the logs and the API use, whatever the browser's. */
  function clockTime(iso) {
    const t = new Date(iso);
    return isNaN(t) ? String(iso) : t.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
  }

  /** The item's id as a link to its page: state, payload, attempts (item.html). */
  function idCell(id) {
    const td = el('td', 'id');
    const a = el('a', null, id);
    a.href = '/item.html?id=' + encodeURIComponent(id);
    td.append(a);
    return td;
  }

  function notice(text) {
    const n = $('notice');
    n.textContent = text;
    n.hidden = !text;
  }

  function problem(text) {
    const p = $('problem');
    p.textContent = text;
    p.hidden = !text;
  }

  function showSpool(spool, at) {
    setText('count-pending', spool.pending);
    setText('count-claimed', spool.claimed);
    setText('count-scheduled', spool.scheduled);
    setText('count-retrying', spool.retrying);
    setText('count-done', spool.done);
    setText('count-failed', spool.failed);
    setText('oldest-pending', spool.pending > 0 ? duration(Math.max(0, spool.oldestPendingAgeMs)) : '');
    // done per minute from successive samples over the last minute; a smaller count (a purge) starts afresh
    const last = doneSamples[doneSamples.length - 1];
    if (last && spool.done < last.done) doneSamples = [];
    doneSamples.push({ at: at, done: spool.done });
    while (doneSamples.length > 2 && at - doneSamples[1].at >= THROUGHPUT_WINDOW_MS) doneSamples.shift();
    const first = doneSamples[0];
    const span = at - first.at;
    setText('throughput', doneSamples.length < 2 || span <= 0 ? ''
      : ((spool.done - first.done) * 60000 / span).toFixed(1));
  }

  function showLease(lease) {
    setText('lease-mode', lease.mode);
    const h = lease.holder;
    setText('lease-holder', h ? [h.instance, h.host && '@ ' + h.host, h.build && '(' + h.build + ')']
      .filter(Boolean).join(' ') : '');
    setText('lease-epoch', lease.epoch);
    setText('lease-renewed', lease.renewedAt ? clockTime(lease.renewedAt) : '');
    setText('lease-reason', lease.reset ? lease.reason + ' · reset: ' + lease.reset.said : lease.reason);
  }

  function shown(id, listed, total) {
    $(id).textContent = total > listed ? '(first ' + listed + ' of ' + total + ')' : '';
  }

  function showClaims(items, total, now) {
    const rows = items.map((item) => {
      const tr = el('tr');
      tr.dataset.id = item.id;
      // holder: the instance named in the claim where the API says it (docs/http-api.md), and the claim's generation
      tr.append(idCell(item.id), el('td', null, [item.holder, item.generation].filter(Boolean).join(' · ') || '—'),
        el('td', null, item.attempt === undefined ? '—' : item.attempt));
      const expires = item.leaseExpiresAt ? new Date(item.leaseExpiresAt).getTime() : NaN;
      const left = expires - now;
      tr.append(isNaN(expires) ? el('td', null, '—')
        : el('td', left < 0 ? 'expired' : null,
          (left < 0 ? 'expired ' + duration(left) + ' ago' : 'in ' + duration(left)) + ' · ' + clockTime(item.leaseExpiresAt)));
      return tr;
    });
    $('claims').tBodies[0].replaceChildren(...rows);
    $('claims-empty').hidden = rows.length > 0;
    shown('claims-shown', items.length, total);
  }

  /** "in 5 min 0 s · 2026-12-06 14:03:07 UTC", or "now · ..." once runAt has come. */
  function runs(runAt, now) {
    const due = new Date(runAt).getTime() - now;
    return (due > 0 ? 'in ' + duration(due) : 'now') + ' · ' + clockTime(runAt);
  }

  /** Scheduled and retrying items together, soonest first: what runs next, and why a retry waits. */
  function showWaiting(scheduled, retrying, now) {
    const items = scheduled.concat(retrying).sort((a, b) => String(a.runAt).localeCompare(String(b.runAt)));
    const rows = items.slice(0, LISTED).map((item) => {
      const tr = el('tr');
      tr.dataset.id = item.id;
      tr.dataset.state = item.state;
      tr.append(idCell(item.id), el('td', 'state', item.state), el('td', 'runs', runs(item.runAt, now)),
        el('td', null, item.enqueuedAt ? clockTime(item.enqueuedAt) : '—'), el('td', 'reason', item.reason || '—'));
      return tr;
    });
    $('waiting').tBodies[0].replaceChildren(...rows);
    $('waiting-empty').hidden = rows.length > 0;
    $('waiting-shown').textContent = scheduled.length >= LISTED || retrying.length >= LISTED
      ? '(the first ' + LISTED + ' of each)' : '';
  }

  // ---- reading --------------------------------------------------------------------------------------

  async function getJson(path) {
    // A read never answered (a stalled proxy, a blocked worker) must not stop the refresh loop for good:
    // Promise.all below waits for every read, and fetch itself never gives up.
    const res = await auth.get(path, READ_TIMEOUT_MS);
    if (!res.ok) throw new Error('GET ' + path + ' answered ' + res.status + (await errorText(res)));
    return res.json();
  }

  /** A page of a listing: its items, and the cursor of the next page its Link header names (null on the last). */
  async function getPage(path) {
    const res = await auth.get(path, READ_TIMEOUT_MS);
    if (!res.ok) throw new Error('GET ' + path + ' answered ' + res.status + (await errorText(res)));
    const link = /<([^>]*)>\s*;\s*rel="next"/.exec(res.headers.get('Link') || '');
    return { items: await res.json(), next: link ? new URL(link[1], location.href).searchParams.get('after') : null };
  }

  const errorText = auth.errorText;

  async function refresh() {
    clearTimeout(timer);
    timer = null;
    try {
      const [spool, lease, claimed, failed, scheduled, retrying, recurring, paused, stats] = await Promise.all([getJson('/spool'),
        getJson('/lease'), getJson('/items?state=claimed&limit=' + LISTED), getPage(failedPage.path()),
        getJson('/items?state=scheduled&limit=' + LISTED), getJson('/items?state=retrying&limit=' + LISTED),
        getJson('/schedules'), getJson('/drain'), getJson('/stats?window=1h')]);
      const now = Date.now();
      showSpool(spool, now);
      drain.show(paused);
      charts.show(stats);
      showLease(lease);
      schedules.show(recurring, now);
      showClaims(claimed, spool.claimed, now);
      showWaiting(scheduled, retrying, now);
      failedPage.show(failed.items, spool.failed, failed.next);
      problem('');
      $('updated').textContent = 'updated ' + clockTime(new Date(now).toISOString());
    } catch (e) {
      problem('Cannot read the service (' + e.message + '); trying again.');
    }
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = document.hidden ? null : setTimeout(refresh, REFRESH_MS);
  }

  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      clearTimeout(timer);
      timer = null;
      $('updated').textContent += ' · paused while hidden';
    } else {
      refresh();
    }
  });

  // ---- changing: POST with the token when the service asks for one (status-page-token.js) ----------------

  const post = auth.post;

  function retryPath(id) {
    return '/items/' + encodeURIComponent(id) + '/retry';
  }

  async function acting(work) {
    if (busy) return;
    busy = true;
    document.querySelectorAll('button.retry, #retry-all, button.schedule-act, #drain-toggle').forEach((b) => { b.disabled = true; });
    try {
      notice(await work());
    } catch (e) {
      notice('');
      problem('That failed: ' + e.message);
    } finally {
      busy = false;
      refresh();
    }
  }

  function retryOne(id) {
    acting(async () => {
      const res = await post(retryPath(id));
      if (res.status === 401) return 'Not retried: no token given.';
      if (!res.ok) return 'Not retried ' + id + ': ' + res.status + (await errorText(res));
      return 'Retried ' + id + ': it is pending again.';
    });
  }

  function retryAll() {
    acting(async () => {
      const res = await post('/items/retry?state=failed');
      if (res.status === 401) return 'Not retried: no token given.';
      if (!res.ok) return 'Not retried: ' + res.status + (await errorText(res));
      const body = await res.json();
      return 'Retried ' + body.retried + ' failed item(s).';
    });
  }

  // The Schedules section (status-page-schedules.js) and the drain's pause (status-page-drain.js): their buttons
  // POST as the retries do, then say what was done (done: the answer's body to the notice's text).
  function act(path, done) {
    acting(async () => {
      const res = await post(path);
      if (res.status === 401) return 'Not done: no token given.';
      return res.ok ? done(await res.json()) : 'Not done: ' + res.status + (await errorText(res));
    });
  }
  const schedules = window.LeaseholdSchedules({ el: el, idCell: idCell, runs: runs, duration: duration, act: act });
  const charts = window.LeaseholdCharts();
  const drain = window.LeaseholdDrain({ clockTime: clockTime, act: act, busy: () => busy });
  const failedPage = window.LeaseholdFailed({ el: el, idCell: idCell, clockTime: clockTime, listed: LISTED,
    busy: () => busy, retryOne: retryOne, refresh: refresh });
  $('retry-all').addEventListener('click', retryAll);
  refresh();
})();
