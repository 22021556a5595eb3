// leasehold status page: the Schedules section (GET /schedules), with Run now, Pause and Resume. Loaded before
// status-page.js, which calls show() on each refresh and lends its helpers. Text only, never HTML: names and ids
// are configuration and user data.
'use strict';
window.LeaseholdSchedules = function (h) {
  /** "every 10s", or "cron 0 0 2 * * ? (Europe/Berlin)". */
  function rule(s) {
    return s.every ? 'every ' + s.every : 'cron ' + s.cron + (s.timeZone && s.timeZone !== 'UTC' ? ' (' + s.timeZone + ')' : '');
  }

  /** What needs an operator's eye first: late, a clock behind, a problem; then paused. */
  function status(s) {
    const said = [];
    if (s.late) said.push('late');
    if (s.clockBehindMs) said.push('clock ' + h.duration(s.clockBehindMs) + ' behind');
    if (s.problem) said.push(s.problem);
    if (s.paused) said.push(s.pausedBy && s.pausedBy.paused ? 'paused by ' + s.pausedBy.by : 'paused');
    return said.length ? said.join(' · ') : 'on time';
  }

  function button(label, name, path, done) {
    const b = h.el('button', 'schedule-act', label);
    b.type = 'button';
    b.setAttribute('aria-label', label + ' ' + name);
    b.addEventListener('click', () => h.act(path, done));
    return b;
  }

  function show(schedules, now) {
    const rows = schedules.map((s) => {
      const tr = h.el('tr');
      tr.dataset.name = s.name;
      const last = s.lastFired;
      const path = '/schedules/' + encodeURIComponent(s.name) + '/';
      const actions = h.el('td', 'action');
      actions.append(button('Run now', s.name, path + 'trigger', (made) => 'Fired ' + s.name + ' by hand: item ' + made.id + '.'),
        s.paused ? button('Resume', s.name, path + 'resume', () => 'Resumed ' + s.name + ' for every instance.')
          : button('Pause', s.name, path + 'pause', () => 'Paused ' + s.name + ' for every instance.'));
      tr.append(h.el('td', 'name', s.name), h.el('td', 'rule', rule(s)),
        h.el('td', 'next', s.next ? h.runs(s.next, now) : '—'), last ? h.idCell(last.id) : h.el('td', null, '—'),
        h.el('td', 'state', last ? last.state : '—'), h.el('td', 'status' + (s.late || s.clockBehindMs ? ' bad' : ''),
          status(s)), actions);
      return tr;
    });
    document.getElementById('schedules').tBodies[0].replaceChildren(...rows);
    document.getElementById('schedules-empty').hidden = rows.length > 0;
  }

  return { show: show };
};
