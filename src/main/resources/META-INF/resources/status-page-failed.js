// leasehold status page: the Failed section (GET /items?state=failed), searched (q=) and paged (the Link header's
// next page, after=). Loaded before status-page.js, which reads path() on each refresh, calls show() with the page
// and lends its helpers. Text only, never HTML: ids and reasons are user data.
'use strict';
window.LeaseholdFailed = function (h) {
  const $ = (id) => document.getElementById(id);
  const search = $('failed-search');
  let q = '';
  let after = null; // the cursor of the page shown; null: the first page
  let before = []; // the cursors of the pages before it, for First page
  let next = null; // the cursor the last answer's Link header gave
  let typing = null;

  /** The address of the page to show, as the refresh reads it. */
  function path() {
    return '/items?state=failed&limit=' + h.listed + (q ? '&q=' + encodeURIComponent(q) : '')
      + (after ? '&after=' + encodeURIComponent(after) : '');
  }

  function show(items, total, nextCursor) {
    next = nextCursor;
    const rows = items.map((item) => {
      const tr = h.el('tr');
      tr.dataset.id = item.id;
      const button = h.el('button', 'retry', 'Retry');
      button.type = 'button';
      button.disabled = h.busy();
      button.setAttribute('aria-label', 'Retry ' + item.id);
      button.addEventListener('click', () => h.retryOne(item.id));
      const action = h.el('td', 'action');
      action.append(button);
      tr.append(h.idCell(item.id), h.el('td', 'reason', item.reason || '—'),
        h.el('td', 'when', item.settledAt ? h.clockTime(item.settledAt) : '—'), action);
      return tr;
    });
    $('failed').tBodies[0].replaceChildren(...rows);
    $('failed-empty').hidden = rows.length > 0;
    $('failed-empty').textContent = q ? 'No failed item matches "' + q + '".' : after ? 'No more failed items.' : 'No item has failed.';
    // Retry all moves every failed item: while a search narrows the table, it would move more than is shown.
    $('retry-all').disabled = h.busy() || items.length === 0 || q !== '';
    $('retry-all').title = q ? 'Clear the search to retry every failed item' : '';
    $('failed-next').disabled = !next;
    $('failed-first').disabled = !after;
    const page = before.length + (after ? 1 : 0) + 1;
    $('failed-shown').textContent = q ? '(' + items.length + (next ? '+' : '') + ' matching' + (page > 1 ? ', page ' + page : '') + ')'
      : page > 1 ? '(page ' + page + ' · ' + total + ' failed)' : total > items.length ? '(first ' + items.length + ' of ' + total + ')' : '';
  }

  function go(cursor, stack) {
    after = cursor;
    before = stack;
    h.refresh();
  }

  search.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      q = search.value.trim();
      go(null, []);
    }, 300);
  });
  $('failed-next').addEventListener('click', () => { if (next) go(next, after ? before.concat([after]) : before); });
  $('failed-first').addEventListener('click', () => go(null, []));

  return { path: path, show: show, searching: () => q !== '' };
};
