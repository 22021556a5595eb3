// leasehold item page (/item.html?id=ID): one item's state and times (GET /items/{id}), a preview of its payload
// (GET /items/{id}/payload) and its latest attempts, each with its output (item-output.js), with Cancel, Retry
// and Purge. Every value is put in the page as text, never as HTML: ids, reasons and payloads are user data.
'use strict';
(function () {
  const REFRESH_MS = 2000;
  const READ_TIMEOUT_MS = 10000;
  const PREVIEW_BYTES = 4096;
  const $ = (id) => document.getElementById(id);
  const auth = window.LeaseholdAuth;
  const id = new URLSearchParams(location.search).get('id') || '';
  const path = '/items/' + encodeURIComponent(id);
  let timer = null;
  let payloadShown = false;
  let purged = false; // purged from this page: its absence is no problem

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clockTime(iso) {
    const t = new Date(iso);
    return isNaN(t) ? String(iso) : t.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
  }

  function say(node, text) {
    $(node).textContent = text;
    $(node).hidden = !text;
  }

  const errorText = auth.errorText;

  function showItem(item) {
    $('item-state').textContent = item.state;
    const fields = [['attempt', item.attempt], ['holder', item.holder], ['generation', item.generation],
      ['lease expires', item.leaseExpiresAt && clockTime(item.leaseExpiresAt)], ['runs at', item.runAt && clockTime(item.runAt)],
      ['enqueued', item.enqueuedAt && clockTime(item.enqueuedAt)], ['settled', item.settledAt && clockTime(item.settledAt)],
      ['reason', item.reason]].filter((f) => f[1] !== undefined && f[1] !== null);
    $('item-fields').replaceChildren(...fields.flatMap((f) => [el('dt', null, f[0]), el('dd', null, f[1])]));
    $('item-cancel').hidden = !(item.state === 'pending' || item.state === 'scheduled');
    $('item-retry').hidden = item.state !== 'failed';
    $('item-purge').hidden = !(item.state === 'done' || item.state === 'failed');
    const numbered = new Set(); // a retry by hand counts afresh: only the latest attempt of a number has its output
    const rows = (item.history || []).slice().reverse().map((a) => {
      const tr = el('tr');
      tr.dataset.attempt = a.attempt;
      tr.append(el('td', null, a.attempt), el('td', 'outcome', a.outcome), el('td', null, a.holder || '—'),
        el('td', null, a.epoch === undefined ? '—' : a.epoch), el('td', null, a.startedAt ? clockTime(a.startedAt) : '—'),
        el('td', null, a.endedAt ? clockTime(a.endedAt) : '—'), el('td', 'reason', a.reason || '—'), outputCell(a, numbered));
      return tr;
    });
    $('history').tBodies[0].replaceChildren(...rows);
    $('history-empty').hidden = rows.length > 0;
    $('first-output').hidden = rows.length > 0 || item.state !== 'done';
  }

  function outputCell(a, numbered) {
    const td = el('td');
    if (!numbered.has(a.attempt)) {
      numbered.add(a.attempt);
      const button = el('button', null, 'show');
      button.type = 'button';
      button.setAttribute('aria-label', 'show the output of attempt ' + a.attempt);
      button.addEventListener('click', () => window.LeaseholdItemOutput.show(path, a.attempt, a.startedAt));
      td.append(button);
    }
    return td;
  }

  /** No item (any more): what was shown of one is cleared, so no button acts on an item that is gone. */
  function showGone() {
    $('item-state').textContent = 'none';
    $('item-fields').replaceChildren();
    ['item-cancel', 'item-retry', 'item-purge'].forEach((b) => { $(b).hidden = true; });
    $('payload').textContent = '—';
    $('payload-size').textContent = '';
    $('history').tBodies[0].replaceChildren();
    $('history-empty').hidden = true;
    $('first-output').hidden = true;
    $('attempt-output').hidden = true;
    payloadShown = false; // a later item of this id has a payload of its own
  }

  /** Text when the first bytes are UTF-8, else their hex; the size always. */
  function showPayload(bytes) {
    const head = bytes.subarray(0, PREVIEW_BYTES);
    $('payload-size').textContent = '(' + bytes.length + ' bytes' + (bytes.length > PREVIEW_BYTES ? ', the first ' + PREVIEW_BYTES + ' shown' : '') + ')';
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: bytes.length > PREVIEW_BYTES });
      $('payload').classList.remove('binary');
    } catch (e) {
      text = Array.from(head.subarray(0, 512), (b) => b.toString(16).padStart(2, '0')).join(' ');
      $('payload').classList.add('binary');
      $('payload-size').textContent += ' · not UTF-8 text: its bytes in hex';
    }
    $('payload').textContent = text || '(empty)';
  }

  async function refresh() {
    clearTimeout(timer);
    try {
      const res = await auth.get(path, READ_TIMEOUT_MS);
      if (res.status === 404) {
        // Looked for again at each refresh: an id enqueued (again) later shows up by itself.
        say('problem', purged ? '' : 'No item "' + id + '": never enqueued, or purged.');
        showGone();
      } else if (!res.ok) {
        throw new Error('GET ' + path + ' answered ' + res.status + (await errorText(res)));
      } else {
        purged = false;
        showItem(await res.json());
      }
      if (res.ok && !payloadShown) { // a payload never changes: read once
        // Its bytes, or the error's JSON: the call answers octet-stream, its errors JSON.
        const p = await auth.get(path + '/payload', READ_TIMEOUT_MS, 'application/octet-stream, application/json;q=0.5');
        if (p.ok) {
          showPayload(new Uint8Array(await p.arrayBuffer()));
          payloadShown = true;
        } else {
          $('payload').textContent = 'not read: ' + p.status + (await errorText(p));
          payloadShown = p.status >= 400 && p.status < 500 && p.status !== 401; // a refusal stays one: not asked again each refresh
        }
      }
      if (res.ok) say('problem', '');
      $('updated').textContent = 'updated ' + clockTime(new Date().toISOString());
    } catch (e) {
      say('problem', 'Cannot read the service (' + e.message + '); trying again.');
    }
    timer = document.hidden ? null : setTimeout(refresh, REFRESH_MS);
  }

  async function act(method, target, done) {
    $('item-cancel').disabled = $('item-retry').disabled = $('item-purge').disabled = true;
    try {
      const res = await auth.call(target, method);
      purged = res.ok && target.endsWith('/purge');
      say('notice', res.ok ? done : 'Not done: ' + res.status + (await errorText(res)));
    } catch (e) {
      say('problem', 'That failed: ' + e.message);
    } finally {
      $('item-cancel').disabled = $('item-retry').disabled = $('item-purge').disabled = false;
      refresh();
    }
  }

  $('item-id').textContent = id || '—';
  $('json-link').href = path;
  document.title = 'leasehold item ' + id;
  $('item-cancel').addEventListener('click', () => act('DELETE', path, 'Cancelled: the item is failed, reason "cancelled".'));
  $('item-retry').addEventListener('click', () => act('POST', path + '/retry', 'Retried: the item is pending again.'));
  $('first-output').addEventListener('click', () => window.LeaseholdItemOutput.show(path, 1, null));
  $('item-purge').addEventListener('click', () => {
    // Nothing brings a purged item back: asked first.
    if (!confirm('Purge item "' + id + '"? Its payload, attempts and their outputs are removed for good; its id may be enqueued again.')) return;
    act('POST', path + '/purge', 'Purged: the item is gone; its id may be enqueued again.');
  });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  refresh();
})();
