/**
 * Code that runs inside the page, kept as JavaScript source: the e2e project is
 * type-checked without the DOM library (it shares the Node config), and these
 * are small enough to read as they are.
 */

/** Installed before the app's first script (Playwright init scripts are not subject to the page's CSP). */
export const RECORD_CSP_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
`;

/** Page-side: an IndexedDB request as a promise of its result, named `request` (the scripts' first line). */
export const IDB_REQUEST = `const request = (r) =>
    new Promise((resolve, reject) => {
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });`;

/**
 * Everything the page can store, as text: every record of every object store of
 * every IndexedDB database, localStorage and sessionStorage.
 * Evaluates to { databases: { [db]: { [store]: string } }, localStorage, sessionStorage }.
 */
export const DUMP_PAGE_STORAGE = `(async () => {
  ${IDB_REQUEST}
  const databases = {};
  for (const info of await indexedDB.databases()) {
    const db = await request(indexedDB.open(info.name));
    databases[info.name] = {};
    for (const store of Array.from(db.objectStoreNames)) {
      const records = await request(db.transaction(store, 'readonly').objectStore(store).getAll());
      databases[info.name][store] = JSON.stringify(records);
    }
    db.close();
  }
  const dump = (storage) => {
    const entries = Object.keys(storage).map((key) => [key, storage.getItem(key)]);
    return JSON.stringify(Object.fromEntries(entries));
  };
  return { databases, localStorage: dump(localStorage), sessionStorage: dump(sessionStorage) };
})()`;

/** Counts records per object store, per database. */
export const COUNT_PAGE_RECORDS = `(async () => {
  ${IDB_REQUEST}
  const counts = {};
  for (const info of await indexedDB.databases()) {
    const db = await request(indexedDB.open(info.name));
    counts[info.name] = {};
    for (const store of Array.from(db.objectStoreNames)) {
      counts[info.name][store] = await request(db.transaction(store, 'readonly').objectStore(store).count());
    }
    db.close();
  }
  return counts;
})()`;

/**
 * Writes `count` operations parked for review (so none is sent) straight into
 * the outbox of the only profile database: a long outbox without queueing it
 * through the UI. Evaluates to the number written.
 */
export function parkedOpsScript(count: number): string {
  return `(async () => {
  ${IDB_REQUEST}
  const names = (await indexedDB.databases()).map((d) => d.name || '').filter((n) => n.startsWith('fieldbook-'));
  if (names.length !== 1) throw new Error('expected one profile database, found ' + names.join(', '));
  const db = await request(indexedDB.open(names[0]));
  const tx = db.transaction('outbox', 'readwrite');
  for (let i = 1; i <= ${count}; i++) {
    tx.objectStore('outbox').put({
      id: 'parked-' + i, batchId: 'parked', seq: i, targetKey: 'user:' + i, dependsOn: [],
      op: { kind: 'user.update', userid: i, changes: { status: 'Inactive' } },
      base: { status: 'Active' }, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      status: 'needs-review', attempts: 1, maybeSent: false, nextAttemptAt: null,
      lastError: { code: 'rejected', message: 'Refused' }, response: null, theirs: null, summary: 'Change ' + i,
    });
  }
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
  return ${count};
})()`;
}

/**
 * What injected markup would leave behind: elements that run code or load
 * content, and event-handler attributes. Also whether the page grew wider than
 * the window (a very long name breaking the layout).
 */
export const INSPECT_PAGE_FOR_INJECTION = `(() => {
  const active = document.querySelectorAll('iframe, object, embed, frame, base, form[action], meta[http-equiv="refresh"]').length;
  const inlineScripts = Array.from(document.scripts).filter((script) => !script.src).length;
  let handlers = 0;
  const links = [];
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of Array.from(element.attributes)) if (/^on/i.test(attribute.name)) handlers++;
  }
  // links a user could follow (the app's own head, such as an empty data: icon, is not data from the API)
  for (const link of document.body.querySelectorAll('a[href], area[href]')) {
    const href = link.getAttribute('href');
    if (href && /^\\s*(javascript|data|vbscript|file):/i.test(href)) links.push(href);
  }
  return {
    active,
    inlineScripts,
    handlers,
    dangerousLinks: links,
    overflowPx: document.documentElement.scrollWidth - window.innerWidth,
  };
})()`;

/** Every record of the named object stores of the only profile database (the cache as the app holds it). */
export function readStoresScript(stores: readonly string[]): string {
  return `(async () => {
  ${IDB_REQUEST}
  const names = (await indexedDB.databases()).map((d) => d.name || '').filter((n) => n.startsWith('fieldbook-'));
  if (names.length !== 1) throw new Error('expected one profile database, found ' + names.join(', '));
  const db = await request(indexedDB.open(names[0]));
  const out = {};
  for (const store of ${JSON.stringify(stores)}) {
    out[store] = await request(db.transaction(store, 'readonly').objectStore(store).getAll());
  }
  db.close();
  return out;
})()`;
}

/** Every record of the given object stores of the one profile database, as { [store]: rows }. */
export function readTablesScript(stores: readonly string[]): string {
  return `(async () => {
  ${IDB_REQUEST}
  const names = (await indexedDB.databases()).map((d) => d.name || '').filter((n) => n.startsWith('fieldbook-'));
  if (names.length !== 1) throw new Error('expected one profile database, found ' + names.join(', '));
  const db = await request(indexedDB.open(names[0]));
  const tables = {};
  for (const store of ${JSON.stringify(stores)}) {
    tables[store] = await request(db.transaction(store, 'readonly').objectStore(store).getAll());
  }
  db.close();
  return tables;
})()`;
}
