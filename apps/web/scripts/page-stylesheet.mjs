import { transform } from 'lightningcss';

/**
 * The rules of `css` a drawn page can use: every rule but those whose selectors each name a class (outside any
 * `:not()`, `:where()` or other pseudo-class) that no element of `markup` has, nor the root (`dark`,
 * `has-session`, set by index.html's first script). The same rules, in the same order, as the whole stylesheet:
 * the page looks the same, with half the rules for the browser to parse and match before its first paint
 * (issue 17: Total Blocking Time on a slow phone, docs/performance.md). A class added by script is not in the
 * markup, which is why the app loads the whole stylesheet before it draws (START_IN_STEPS).
 */
export function pageStylesheet(css, markup) {
  const present = new Set(['dark', 'has-session']);
  for (const [, names] of markup.matchAll(/\sclass="([^"]*)"/g)) for (const name of names.split(/\s+/)) if (name) present.add(name);
  const usable = (selector) => selector.every((part) => part.type !== 'class' || present.has(part.name));
  const filtered = transform({
    filename: 'page.css',
    code: Buffer.from(css),
    minify: true,
    visitor: { Rule: { style: (rule) => (rule.value.selectors.some(usable) ? undefined : []) } },
  }).code;
  // Again, to drop the @media and @supports blocks left empty.
  return transform({ filename: 'page.css', code: filtered, minify: true }).code.toString();
}
