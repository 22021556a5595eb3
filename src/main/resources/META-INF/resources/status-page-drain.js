// leasehold status page: the fleet's drain pause (GET /drain), with Pause drain and Resume drain. Loaded before
// status-page.js, which calls show() on each refresh and lends its helpers. Text only: who paused is user data.
'use strict';
window.LeaseholdDrain = function (h) {
  const state = document.getElementById('drain-state');
  const toggle = document.getElementById('drain-toggle');
  let paused = null;

  function show(drain) {
    paused = drain.paused;
    state.classList.toggle('paused', paused);
    state.textContent = paused
      ? 'Drain paused for every instance since ' + h.clockTime(drain.since) + ' by ' + drain.by
        + ': held work finishes, no new attempt starts.'
      : 'Drain running: every instance claims new items.';
    toggle.textContent = paused ? 'Resume drain' : 'Pause drain';
    toggle.disabled = h.busy();
  }

  toggle.addEventListener('click', () => {
    if (paused === null) return;
    const pausing = !paused;
    h.act(pausing ? '/drain/pause' : '/drain/resume', () => pausing
      ? 'Paused the drain for every instance: each stops claiming within its poll interval.'
      : 'Resumed the drain for every instance.');
  });

  return { show: show };
};
