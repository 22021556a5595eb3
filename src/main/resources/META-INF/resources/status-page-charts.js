// leasehold status page: the Activity charts (GET /stats?window=1h), drawn as SVG by hand: no library, no other
// origin. Loaded before status-page.js, which calls show() on each refresh. Numbers only: nothing here is user data.
'use strict';
window.LeaseholdCharts = function () {
  const NS = 'http://www.w3.org/2000/svg';
  const W = 600;
  const H = 120;
  const PAD = 4;

  function node(tag, attrs) {
    const n = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach((k) => n.setAttribute(k, attrs[k]));
    return n;
  }

  /** One line per series over the minutes; a missing value (null) breaks the line. */
  function draw(svg, minutes, series, max) {
    const x = (i) => PAD + (minutes.length < 2 ? W - 2 * PAD : i * (W - 2 * PAD) / (minutes.length - 1));
    const y = (v) => H - PAD - (max === 0 ? 0 : v * (H - 2 * PAD) / max);
    const parts = [node('line', { x1: 0, y1: H - PAD, x2: W, y2: H - PAD, class: 'axis' })];
    series.forEach((s) => {
      let points = [];
      const flush = () => {
        if (points.length === 1) { // a minute alone between gaps: a dot, as a line of one point shows nothing
          const [px, py] = points[0].split(',');
          parts.push(node('circle', { cx: px, cy: py, r: 2.5, class: 'dot ' + s.name, 'data-series': s.name }));
        } else if (points.length) {
          parts.push(node('polyline', { points: points.join(' '), class: 'series ' + s.name, 'data-series': s.name }));
        }
        points = [];
      };
      minutes.forEach((m, i) => {
        const v = m[s.name];
        if (v === null || v === undefined) flush();
        else points.push(x(i).toFixed(1) + ',' + y(v).toFixed(1));
      });
      flush();
    });
    svg.replaceChildren(...parts);
  }

  function peak(minutes, names) {
    let max = 0;
    minutes.forEach((m) => names.forEach((n) => { if (m[n] > max) max = m[n]; }));
    return max;
  }

  function show(stats) {
    const minutes = stats.minutes;
    const counted = ['done', 'failed', 'retried', 'enqueued'];
    const perMinute = peak(minutes, counted);
    draw(document.getElementById('chart-items'), minutes, counted.map((n) => ({ name: n })), perMinute);
    document.getElementById('chart-items-max').textContent = 'peak ' + perMinute + ' per minute';
    const pending = peak(minutes, ['pending']);
    draw(document.getElementById('chart-pending'), minutes, [{ name: 'pending' }], pending);
    document.getElementById('chart-pending-max').textContent = 'peak ' + pending + ' pending';
    const last = minutes[minutes.length - 1] || {};
    const totals = counted.map((n) => n + ' ' + minutes.reduce((sum, m) => sum + m[n], 0)).join(' · ');
    document.getElementById('chart-span').textContent = minutes.length + ' min since ' + (minutes[0] ? minutes[0].at.slice(11, 16) + ' UTC' : '—')
      + ' · ' + totals + (last.oldestPendingAgeMs ? ' · oldest pending ' + Math.round(last.oldestPendingAgeMs / 1000) + ' s' : '');
  }

  return { show: show };
};
