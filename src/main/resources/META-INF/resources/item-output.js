// leasehold item page: one attempt's output (GET /items/{id}/attempts/{n}/output), shown below the attempts when
// its button is pressed. Every value is put in the page as text, never as HTML: a child's output is user data.
'use strict';
(function () {
  const READ_TIMEOUT_MS = 10000;
  const auth = window.LeaseholdAuth;
  const $ = (id) => document.getElementById(id);

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function partTitle(part) {
    const shown = new TextEncoder().encode(part.text).length;
    const whole = part.bytes <= shown;
    return part.name + ' (' + (whole ? part.bytes + ' bytes' : (part.kept === 'tail' ? 'the last ' : 'the first ')
      + shown + ' of ' + part.bytes + ' bytes') + ')';
  }

  /** Reads attempt n's output of the item at itemPath and shows it; startedAt tells a later run's attempt n apart. */
  async function show(itemPath, n, startedAt) {
    const box = $('attempt-output');
    box.hidden = false;
    $('attempt-output-title').textContent = 'Output of attempt ' + n;
    const body = $('attempt-output-body');
    body.replaceChildren(el('p', 'muted', 'reading…'));
    try {
      const res = await auth.get(itemPath + '/attempts/' + n + '/output', READ_TIMEOUT_MS);
      if (!res.ok) {
        // The answer's own words: it tells a missing item from an attempt that kept no output.
        const why = (await auth.errorText(res)).replace(/^: /, '');
        body.replaceChildren(el('p', 'muted', res.status === 404 ? 'Not shown: ' + why
          : 'Not read: ' + res.status + (why ? ': ' + why : '')));
        return;
      }
      const output = await res.json();
      const facts = [output.handler || 'handler', output.status === undefined || output.status === null
        ? 'no status: stopped before it ended'
        : ({ http: 'HTTP ', exec: 'exit ' }[output.handler] || 'status ') + output.status];
      const nodes = [el('p', 'muted', facts.join(' · '))];
      if (startedAt && output.startedAt && startedAt !== output.startedAt) {
        nodes.push(el('p', 'notice', 'This output is of a later attempt ' + n + ' (started ' + output.startedAt
          + '): the item was retried by hand since.'));
      }
      for (const part of output.parts || []) {
        nodes.push(el('h3', null, partTitle(part)), el('pre', 'payload', part.text || '(empty)'));
      }
      body.replaceChildren(...nodes);
    } catch (e) {
      body.replaceChildren(el('p', 'problem', 'Cannot read the output (' + e.message + ').'));
    }
  }

  window.LeaseholdItemOutput = { show };
})();
