// leasehold status page: reads and POSTs that carry the API token once the service asks for it (401). The token
// is asked in the page's own form, once for every call waiting on it, and kept in sessionStorage: this tab only.
// Loaded before status-page.js.
'use strict';
window.LeaseholdAuth = (function () {
  const TOKEN_KEY = 'leasehold.api.token';
  const $ = (id) => document.getElementById(id);

  // The form, the same on every page, put after the page's #problem line.
  const form = document.createElement('form');
  form.id = 'token-form';
  form.className = 'card token';
  form.hidden = true;
  const title = document.createElement('h2');
  title.textContent = 'API token';
  const why = document.createElement('p');
  why.id = 'token-why';
  const label = document.createElement('label');
  label.htmlFor = 'token-input';
  label.textContent = 'Token';
  const row = document.createElement('div');
  row.className = 'row';
  const input = Object.assign(document.createElement('input'), { id: 'token-input', type: 'password', autocomplete: 'off',
    spellcheck: false, required: true });
  const submit = Object.assign(document.createElement('button'), { id: 'token-submit', type: 'submit', textContent: 'Use token' });
  const cancel = Object.assign(document.createElement('button'), { id: 'token-cancel', type: 'button', className: 'quiet',
    textContent: 'Cancel' });
  row.append(input, submit, cancel);
  form.append(title, why, label, row);
  $('problem').after(form);
  let tokenWaiter = null;
  let asked = null; // the token form's answer while it is shown: every call that met a 401 waits on it

  /** Shows the token form; resolves with the token given, or null when cancelled. */
  let declinedUntil = 0; // a cancelled form is not shown again at once by the next refresh's 401

  function askToken(why) {
    if (asked) return asked;
    if (Date.now() < declinedUntil) return Promise.resolve(null);
    $('token-why').textContent = why === 'refused'
      ? 'That token was refused. Give one of the service\'s API tokens (leasehold.api.token, or'
        + ' leasehold.api.viewer-token to read only), or an OIDC access token where the service takes them;'
        + ' it is kept in this tab only.'
      : why === 'viewer'
        ? 'That token only reads: a change needs the operator\'s token (leasehold.api.token), or an OIDC access token'
          + ' with the role operator. It is kept in this tab only.'
        : 'This service needs an API token: leasehold.api.token, or leasehold.api.viewer-token to read only, or an'
          + ' OIDC access token where the service takes them. It is kept in this tab only.';
    $('token-form').hidden = false;
    $('token-input').value = '';
    $('token-input').focus();
    asked = new Promise((resolve) => { tokenWaiter = resolve; });
    return asked;
  }

  function tokenAnswered(token) {
    $('token-form').hidden = true;
    const resolve = tokenWaiter;
    tokenWaiter = null;
    asked = null;
    if (resolve) resolve(token);
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('token-input').value.trim();
    if (token) tokenAnswered(token);
  });
  $('token-cancel').addEventListener('click', () => {
    declinedUntil = Date.now() + 60000;
    tokenAnswered(null);
  });

  /** Calls path; on 401 asks for the token (kept in sessionStorage: this tab only) and tries again. */
  /**
   * Calls path; on 401 asks for a token, and on a change answered 403 (the viewer's token) for the operator's,
   * then tries again; a cancelled form answers what the service said.
   */
  async function call(path, options, accept) { // options(): fresh for each try (a read's timeout starts anew)
    for (;;) {
      const token = sessionStorage.getItem(TOKEN_KEY);
      const headers = { Accept: accept || 'application/json' };
      if (token) headers.Authorization = 'Bearer ' + token;
      const res = await fetch(path, Object.assign({ headers: headers }, options()));
      const viewer = res.status === 403 && options().method !== undefined; // a change, refused to the viewer's token
      if (res.status !== 401 && !viewer) return res;
      if (sessionStorage.getItem(TOKEN_KEY) !== token) continue; // another call was given a new one meanwhile
      if (!viewer) sessionStorage.removeItem(TOKEN_KEY); // a refused token is forgotten
      const given = await askToken(viewer ? 'viewer' : token !== null ? 'refused' : 'none');
      if (given === null) return res;
      sessionStorage.setItem(TOKEN_KEY, given);
    }
  }

  /** ": <the error's text>" from an error answer's JSON body, or "". */
  async function errorText(res) {
    try {
      const body = await res.json();
      return body && body.error ? ': ' + body.error : '';
    } catch (e) {
      return '';
    }
  }

  return {
    errorText: errorText,
    post: (path) => call(path, () => ({ method: 'POST' })),
    /** A change by any method (DELETE, POST). */
    call: (path, method) => call(path, () => ({ method: method })),
    /** A read: no cache; given up after timeoutMs (a read never answered must not stop the page). */
    get: (path, timeoutMs, accept) => call(path, () => ({ cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) }), accept),
  };
})();
