import { describe, expect, it } from 'vitest';
import { pageStylesheet } from './page-stylesheet.mjs';

const css = [
  '*,:before,:after{box-sizing:border-box}',
  ':root:not(.dark){--color-slate-400:#555}',
  '.flex{display:flex}',
  '.grid{display:grid}',
  '.dark\\:text-white:where(.dark,.dark *){color:#fff}',
  '.hover\\:underline:hover{text-decoration:underline}',
  '@media (width>=40rem){.sm\\:flex{display:flex}.sm\\:grid{display:grid}}',
  '@media (width<40rem){:where(a[href],button):not(.sr-only){min-height:2.75rem}}',
  '.unused,.flex-col{flex-direction:column}',
  '.group:hover .group-hover\\:block{display:block}',
].join('');

describe('pageStylesheet', () => {
  const markup = '<div class="flex dark:text-white"><a class="hover:underline sm:flex" href="/">x</a><p class="flex-col">y</p></div>';
  const out = pageStylesheet(css, markup);

  it('keeps the rules of the classes the page has, with their variants and media queries', () => {
    expect(out).toContain('.flex{display:flex}');
    expect(out).toContain('.dark\\:text-white:where(.dark,.dark *)');
    expect(out).toContain('.hover\\:underline:hover');
    expect(out).toMatch(/@media \(width>=40rem\)\{\.sm\\:flex\{display:flex\}\}/);
  });

  it('keeps every rule that names no class, or names one only inside a pseudo-class', () => {
    expect(out).toContain('box-sizing:border-box');
    expect(out).toContain(':root:not(.dark)');
    expect(out).toContain(':not(.sr-only){min-height:2.75rem}');
  });

  it('keeps a rule when one of its selectors applies', () => {
    expect(out).toContain('flex-direction:column');
  });

  it('drops the rules of classes the page does not have, and the blocks they leave empty', () => {
    expect(out).not.toContain('.grid');
    expect(out).not.toContain('sm\\:grid');
    expect(out).not.toContain('group-hover');
    expect(pageStylesheet('@media (width>=40rem){.grid{display:grid}}.flex{display:flex}', '<i class="flex"></i>')).toBe('.flex{display:flex}');
  });

  it('counts the classes the first script puts on the root as present', () => {
    expect(pageStylesheet('.has-session #root{visibility:hidden}', '<div></div>')).toContain('visibility:hidden');
  });
});
