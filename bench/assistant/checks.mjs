// The expectations of the assistant evaluation (cases.mjs), as small checks. Each takes the case's
// context and the expectation's data and answers null (met) or a sentence saying what failed.
// Page checks drive the live preview in Chromium as a person would: words they can read, buttons
// found by their accessible names, state that survives a reload.
//
// ctx: { open(route?) → Playwright page (a fresh load of the preview), before / after (Map path →
//        content of the project's files before and after the measured turn), turn (see
//        assistant.bench.mjs: outcome, charged, refunded, code) }

const TIMEOUT = 10_000;
const lower = (s) => String(s).toLowerCase();
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const visibleText = (page) => page.evaluate(() => document.body.innerText);

/** Polls `probe` until it answers true (or a value other than false/null), or the time is up. */
export async function until(probe, timeout = TIMEOUT, every = 100) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe().catch(() => false);
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The words not (yet) on the page after waiting for them. */
export async function missingWords(page, words, timeout = TIMEOUT) {
  let missing = words;
  await until(async () => {
    const text = lower(await visibleText(page));
    missing = words.filter((w) => !text.includes(lower(w)));
    return missing.length === 0;
  }, timeout);
  return missing;
}

const isDark = (page) => page.evaluate(() => document.documentElement.classList.contains('dark'));
const bodyBackground = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** The custom properties (`--name: value`) of the first `:root { }` block of a stylesheet. */
export function rootVariables(css) {
  const block = /(^|\n)\s*:root\s*\{([^}]*)\}/.exec(css ?? '')?.[2] ?? '';
  return new Map([...block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

/** Buttons that save one item as a favourite (not a "Favourites" filter). */
async function heartButtons(page) {
  const all = page.getByRole('button', { name: /favou?rite|heart|♥|♡|bookmark|like/i });
  const hearts = [];
  for (const button of await all.all()) {
    const name = (await button.getAttribute('aria-label')) ?? (await button.innerText());
    // A filter ("♥ Favourites (2)", "Show favourites only") is not an item's heart.
    if (/^[^a-z]*((show|only|my|all|view)\s+)*favou?rites?\b/i.test(name.trim())) continue;
    if (!(await button.isVisible())) continue;
    hearts.push(button);
  }
  return hearts;
}

async function isSaved(button) {
  const pressed = await button.getAttribute('aria-pressed');
  if (pressed !== null) return pressed === 'true';
  const name = (await button.getAttribute('aria-label')) ?? (await button.innerText());
  return /remove|unsave|saved|unfavou?rite|♥/i.test(name);
}

async function savedCount(page) {
  let n = 0;
  for (const b of await heartButtons(page)) if (await isSaved(b)) n += 1;
  return n;
}

/** Numbers shown with a streak ("🔥 3 days streak", "Streak: 3", "3-day streak"), summed. */
async function streakTotal(page) {
  const text = await visibleText(page);
  let total = 0;
  let found = false;
  for (const m of text.matchAll(/(\d+)\s*-?\s*days?\s+streak|streak\D{0,12}?(\d+)/gi)) {
    found = true;
    total += Number(m[1] ?? m[2]);
  }
  return found ? total : null;
}

/** The list items around the first visible item holding `term`: their parent's visible children. */
function listAround(page, term) {
  return page.evaluate((t) => {
    const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const items = [...document.querySelectorAll('main li, main article, main [role=listitem], main tr, main .card, li, article')].filter(
      (el) => visible(el) && el.innerText.toLowerCase().includes(t) && !el.querySelector('input[type=search], input'),
    );
    const first = items[0];
    if (!first || !first.parentElement) return null;
    const parent = first.parentElement;
    parent.setAttribute('data-bench-list', '1');
    return [...parent.children].filter(visible).length;
  }, lower(term));
}

const countList = (page) =>
  page.evaluate(() => {
    const parent = document.querySelector('[data-bench-list]');
    if (!parent) return null;
    return [...parent.children].filter((el) => el.getClientRects().length > 0).length;
  });

async function newItemBox(page) {
  const box = page.locator('main form input:not([type]), main form input[type=text], form input:not([type]), form input[type=text]').first();
  return (await box.count()) > 0 ? box : null;
}

/** The checkbox of the list item that shows `text`. */
async function checkboxFor(page, text) {
  const named = page.getByRole('checkbox', { name: new RegExp(escape(text), 'i') });
  if ((await named.count()) > 0) return named.first();
  const row = page.locator('li, [role=listitem], label, tr').filter({ hasText: text }).last();
  const inside = row.getByRole('checkbox');
  return (await inside.count()) > 0 ? inside.first() : null;
}

/** The colour a CSS colour value paints, as [r, g, b] (canvas: also oklch, color-mix …). */
function paintedRgb(page, colour) {
  return page.evaluate((value) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const g = canvas.getContext('2d');
    g.fillStyle = '#000';
    g.fillStyle = value;
    g.fillRect(0, 0, 1, 1);
    return [...g.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }, colour);
}

export function hueOf([r, g, b]) {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const d = max - min;
  const l = (max + min) / 2;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) h = max === R ? 60 * (((G - B) / d) % 6) : max === G ? 60 * ((B - R) / d + 2) : 60 * ((R - G) / d + 4);
  return { hue: (h + 360) % 360, saturation: s };
}

export const CHECKS = {
  /** The words are on the page (its visible text, any case). */
  async text(ctx, { words, route }) {
    const page = await ctx.open(route);
    const missing = await missingWords(page, words);
    return missing.length === 0 ? null : `not on the page${route ? ` ${route}` : ''}: ${missing.map((w) => `"${w}"`).join(', ')}`;
  },

  /** The words are not on the page once it has rendered. */
  async textAbsent(ctx, { words, route }) {
    const page = await ctx.open(route);
    await new Promise((r) => setTimeout(r, 500));
    const text = lower(await visibleText(page));
    const present = words.filter((w) => text.includes(lower(w)));
    return present.length === 0 ? null : `still on the page: ${present.map((w) => `"${w}"`).join(', ')}`;
  },

  /** The app's name is unchanged: shown on the page, and what src/site.ts held (when it has one). */
  async appName(ctx, { name }) {
    const page = await ctx.open();
    if ((await missingWords(page, [name])).length > 0) return `the app's name "${name}" is not on the page`;
    const title = await page.title();
    if (!lower(title).includes(lower(name)) && !lower(title).includes('kiln')) return `the page title "${title}" does not name "${name}"`;
    return null;
  },

  /** Files the person had before the edit still hold exactly what they held. */
  async filesKept(ctx, { paths = [], pattern, all = false }) {
    const wanted = all ? [...ctx.before.keys()] : [...paths, ...[...ctx.before.keys()].filter((p) => pattern?.test(p))];
    if (pattern && !all && ![...ctx.before.keys()].some((p) => pattern.test(p))) return `no file matching ${pattern} before the edit (setup did not make it)`;
    const notBefore = wanted.filter((p) => !ctx.before.has(p));
    if (notBefore.length > 0) return `not in the project before the edit (setup): ${notBefore.join(', ')}`;
    const changed = wanted.filter((p) => ctx.after.get(p) !== ctx.before.get(p));
    if (all) {
      const added = [...ctx.after.keys()].filter((p) => !ctx.before.has(p));
      changed.push(...added.map((p) => `${p} (new)`));
    }
    return changed.length === 0 ? null : `changed or removed: ${changed.join(', ')}`;
  },

  /** The turn charged nothing (declined, or a plan waiting for approval). */
  async nothingCharged(ctx) {
    return ctx.turn.charged - ctx.turn.refunded === 0 && ctx.turn.charged === 0 ? null : `charged ${ctx.turn.charged} credit(s), refunded ${ctx.turn.refunded}`;
  },

  /** A toggle switches class `dark` on <html> (and the page's background), a reload keeps it, and it switches back. */
  async darkToggle(ctx) {
    const page = await ctx.open();
    const toggle = page.getByRole('button', { name: /dark|light|theme|night/i }).first();
    if (!(await until(() => toggle.isVisible(), 5000))) return 'no dark mode toggle (a button named dark/light/theme) on the page';
    const dark0 = await isDark(page);
    const bg0 = await bodyBackground(page);
    await toggle.click();
    if (!(await until(async () => (await isDark(page)) !== dark0, 3000))) return `clicking the toggle did not ${dark0 ? 'remove' : 'add'} class "dark" on <html>`;
    const bg1 = await until(async () => {
      const bg = await bodyBackground(page);
      return bg !== bg0 ? bg : null;
    }, 3000);
    if (bg1 === null) return `the class switched but the page's background stayed ${bg0}`;
    await page.reload();
    await until(() => toggle.isVisible(), TIMEOUT);
    await new Promise((r) => setTimeout(r, 300));
    if ((await isDark(page)) === dark0) return 'after a reload the choice was not kept';
    await toggle.click();
    if (!(await until(async () => (await isDark(page)) === dark0, 3000))) return 'clicking the toggle again did not switch back';
    return null;
  },

  /** The light theme's colours (the `:root` variables of src/index.css) are as before the edit. */
  async themeKept(ctx) {
    const before = rootVariables(ctx.before.get('src/index.css'));
    const after = rootVariables(ctx.after.get('src/index.css'));
    if (before.size === 0) return 'src/index.css had no :root variables before the edit';
    const changed = [...before].filter(([k, v]) => after.get(k) !== v).map(([k, v]) => `${k} ${v} → ${after.get(k) ?? 'gone'}`);
    return changed.length === 0 ? null : `the theme's colours changed: ${changed.slice(0, 4).join('; ')}`;
  },

  /** A heart saves an item; after a reload it is still saved (kept in the browser). */
  async favourite(ctx, { route } = {}) {
    const page = await ctx.open(route);
    const found = await until(async () => ((await heartButtons(page)).length > 0 ? true : null), TIMEOUT);
    if (!found) return 'no heart/favourite button on an item';
    const before = await savedCount(page);
    let target = null;
    for (const b of await heartButtons(page)) if (!(await isSaved(b))) { target = b; break; }
    if (target === null) return 'every item is already a favourite before clicking';
    await target.click();
    if (!(await until(async () => (await savedCount(page)) > before, 3000))) return 'clicking the heart did not mark the item as a favourite (aria-pressed / its name)';
    const saved = await savedCount(page);
    await page.reload();
    await until(async () => ((await heartButtons(page)).length > 0 ? true : null), TIMEOUT);
    if (!(await until(async () => (await savedCount(page)) === saved, 3000))) return `after a reload ${await savedCount(page)} favourite(s) instead of ${saved}`;
    return null;
  },

  /** Typing in the search box filters the list to items with the term; clearing brings them back. */
  async search(ctx, { term, route }) {
    const page = await ctx.open(route);
    const box = page.getByRole('searchbox').or(page.getByPlaceholder(/search|filter|find/i)).first();
    if (!(await until(() => box.isVisible(), TIMEOUT))) return 'no search box (a search field, or a box whose placeholder says search/filter)';
    const shown = await until(() => listAround(page, term), TIMEOUT);
    if (shown === null) return `no list item with "${term}" before searching`;
    await box.fill(term);
    const filtered = await until(async () => {
      const n = await countList(page);
      return n !== null && n < shown ? n : null;
    }, 3000);
    if (filtered === null) return `typing "${term}" did not filter the list (${shown} items stayed)`;
    if ((await listAround(page, term)) === null) return `typing "${term}" hid the items that have it`;
    await box.fill('');
    if (!(await until(async () => (await countList(page)) >= shown, 3000))) return 'clearing the search did not bring the list back';
    return null;
  },

  /** Submitting the form empty shows a validation message (in the page, or the browser's own). */
  async formValidation(ctx, { submit, route }) {
    const page = await ctx.open(route);
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: submit }) }).first();
    if (!(await until(() => form.isVisible(), TIMEOUT))) return `no form with a button named ${submit}`;
    const before = await form.innerText();
    await form.getByRole('button', { name: submit }).first().click();
    const message = await until(async () => {
      const lines = (await form.innerText()).split('\n').filter((l) => !before.includes(l));
      const shown = lines.find((l) => /please|required|invalid|valid|must|enter|at least|empty|missing|can.t be|cannot be/i.test(l));
      if (shown) return shown.trim();
      const native = await form.evaluate((f) => [...f.elements].find((el) => el.validationMessage)?.validationMessage ?? null);
      return native;
    }, 3000);
    return message === null ? 'submitting the empty form showed no validation message' : null;
  },

  /** A new item can be added to the checklist and checked off (and stays so after a reload). */
  async checklist(ctx, { add, route, persists = false }) {
    const page = await ctx.open(route);
    const box = await until(() => newItemBox(page), TIMEOUT);
    if (box === null) return 'no text box to add an item';
    await box.fill(add);
    await box.press('Enter');
    if ((await missingWords(page, [add], 3000)).length > 0) return `adding "${add}" did not show it in the list`;
    const checkbox = await checkboxFor(page, add);
    if (checkbox === null) return `"${add}" has no checkbox`;
    await checkbox.check();
    if (!(await until(() => checkbox.isChecked(), 2000))) return `checking "${add}" did not check it`;
    if (!persists) return null;
    await page.reload();
    if ((await missingWords(page, [add])).length > 0) return `"${add}" was gone after a reload`;
    const again = await checkboxFor(page, add);
    if (again === null || !(await until(() => again.isChecked(), 3000))) return `"${add}" was no longer checked after a reload`;
    return null;
  },

  /** Habits show streaks; checking one off for today raises its streak, and a reload keeps it. */
  async streak(ctx, { route } = {}) {
    const page = await ctx.open(route);
    const before = await until(() => streakTotal(page), TIMEOUT);
    if (before === null) return 'no streak shown ("N days streak")';
    const boxes = page.getByRole('checkbox');
    let target = null;
    for (const b of await boxes.all()) if ((await b.isVisible()) && !(await b.isChecked())) { target = b; break; }
    if (target === null) return 'no habit to check off for today';
    await target.check();
    const after = await until(async () => {
      const n = await streakTotal(page);
      return n !== null && n > before ? n : null;
    }, 3000);
    if (after === null) return `checking a habit off did not raise a streak (${before})`;
    await page.reload();
    if (!(await until(async () => (await streakTotal(page)) === after, TIMEOUT))) return 'the streak was not kept after a reload';
    return null;
  },

  /** The new page is linked from the header, shows its words, and has the same header as the home page. */
  async pageInLayout(ctx, { route, words }) {
    const home = await ctx.open();
    const header = home.locator('header').first();
    if (!(await until(() => header.isVisible(), TIMEOUT))) return 'the home page has no header';
    const link = header.locator(`a[href="${route}"], a[href="/${route.replace(/^#\//, '')}"]`);
    if ((await link.count()) === 0) return `the header has no link to ${route}`;
    const homeHeader = (await header.innerText()).trim();
    const page = await ctx.open(route);
    const missing = await missingWords(page, words);
    if (missing.length > 0) return `not on ${route}: ${missing.join(', ')}`;
    const pageHeader = page.locator('header').first();
    if (!(await pageHeader.isVisible())) return `${route} has no header (not in the app's layout)`;
    const text = (await pageHeader.innerText()).trim();
    return text === homeHeader ? null : `${route}'s header differs from the home page's ("${text.slice(0, 60)}" vs "${homeHeader.slice(0, 60)}")`;
  },

  /** A new item typed in the first form's box appears on the page. */
  async addItem(ctx, { text, route }) {
    const page = await ctx.open(route);
    const box = await until(() => newItemBox(page), TIMEOUT);
    if (box === null) return 'no text box to add an item';
    await box.fill(text);
    await box.press('Enter');
    return (await missingWords(page, [text], 3000)).length === 0 ? null : `adding "${text}" did not show it`;
  },

  /** Pressing the keys shows the result. */
  async calculator(ctx, { keys, result, route }) {
    const page = await ctx.open(route);
    const first = page.getByRole('button', { name: keys[0], exact: true }).first();
    if (!(await until(() => first.isVisible(), TIMEOUT))) return `no "${keys[0]}" key`;
    const before = await visibleText(page);
    for (const key of keys) {
      const button = page.getByRole('button', { name: key === '=' ? /^(=|equals)$/i : key === '+' ? /^(\+|plus|add)$/i : key, exact: key !== '=' && key !== '+' }).first();
      if ((await button.count()) === 0) return `no "${key}" key`;
      await button.click();
    }
    const shown = await until(async () => {
      const text = await visibleText(page);
      return new RegExp(`(^|\\D)${result}(\\D|$)`).test(text) && text !== before;
    }, 3000);
    return shown ? null : `${keys.join(' ')} did not show ${result}`;
  },

  /** "Add to cart" puts the product (by its name) in the cart. */
  async addToCart(ctx, { route } = {}) {
    const page = await ctx.open(route);
    const add = page.getByRole('button', { name: /add to (cart|basket|bag)/i }).first();
    if (!(await until(() => add.isVisible(), TIMEOUT))) return 'no "Add to cart" button';
    const name = String(await add.evaluate((b) => b.closest('article, li, .card')?.querySelector('h2, h3, h4, strong')?.textContent ?? '')).trim();
    const cart = page.locator('[aria-label*="cart" i], [aria-label*="basket" i], #cart, .cart').first();
    if ((await cart.count()) === 0) return 'no cart on the page';
    await add.click();
    const inCart = await until(async () => name !== '' && (await cart.innerText()).includes(name), 3000);
    return inCart ? null : `"${name || 'the product'}" did not appear in the cart`;
  },

  /** The primary colour (`--primary`, else the primary button's background) has a hue in [from, to]. */
  async primaryHue(ctx, { from, to }) {
    const page = await ctx.open();
    await until(async () => (await visibleText(page)).trim().length > 0, TIMEOUT);
    const colour = await page.evaluate(() => {
      const v = getComputedStyle(document.documentElement).getPropertyValue('--primary').trim();
      if (v) return v;
      const button = document.querySelector('.btn-primary, button');
      return button ? getComputedStyle(button).backgroundColor : null;
    });
    if (!colour) return 'no --primary colour and no button';
    const rgb = await paintedRgb(page, colour);
    const { hue, saturation } = hueOf(rgb);
    return hue >= from && hue <= to && saturation > 0.2 ? null : `the primary colour ${colour} (rgb ${rgb.join(',')}) has hue ${hue.toFixed(0)}°, not ${from}–${to}°`;
  },
};
