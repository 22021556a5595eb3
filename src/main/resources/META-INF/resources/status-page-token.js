// leasehold status page: POSTs that carry the API token once the service asks for it (401). The token is
// asked in the page's own form and kept in sessionStorage: this tab only. Loaded before status-page.js.
'use strict';
window.LeaseholdPost = (function () {
  const TOKEN_KEY = 'leasehold.api.token';
  const $ = (id) => document.getElementById(id);
  let tokenWaiter = null;

  /** Shows the token form; resolves with the token given, or null when cancelled. */
  function askToken(refused) {
    $('token-why').textContent = refused
      ? 'That token was refused. Give the service\'s API token (leasehold.api.token); it is kept in this tab only.'
      : 'This service needs its API token (leasehold.api.token) for changes. It is kept in this tab only.';
    $('token-form').hidden = false;
    $('token-input').value = '';
    $('token-input').focus();
    return new Promise((resolve) => { tokenWaiter = resolve; });
  }

  function tokenAnswered(token) {
    $('token-form').hidden = true;
    const resolve = tokenWaiter;
    tokenWaiter = null;
    if (resolve) resolve(token);
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('token-input').value.trim();
    if (token) tokenAnswered(token);
  });
  $('token-cancel').addEventListener('click', () => tokenAnswered(null));

  /** POSTs path; on 401 asks for the token (kept in sessionStorage: this tab only) and tries again. */
  async function post(path) {
    for (;;) {
      const token = sessionStorage.getItem(TOKEN_KEY);
      const headers = { Accept: 'application/json' };
      if (token) headers.Authorization = 'Bearer ' + token;
      const res = await fetch(path, { method: 'POST', headers: headers });
      if (res.status !== 401) return res;
      sessionStorage.removeItem(TOKEN_KEY);
      const given = await askToken(token !== null);
      if (given === null) return res;
      sessionStorage.setItem(TOKEN_KEY, given);
    }
  }

  return post;
})();
