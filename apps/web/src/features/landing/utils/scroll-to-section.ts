import { SMOOTH_SCROLL_OFFSET_PX } from '@terrafund/contracts';

/**
 * Scrolls so the section's top sits SMOOTH_SCROLL_OFFSET_PX below the viewport top, clearing the sticky
 * header (docs/product.md §2.4 Public screens, §5.2 Packs). Visitors who asked their system for reduced motion jump instead.
 */
export function scrollToSection(id: string) {
  const element = document.getElementById(id);
  if (!element) return;
  const top = element.getBoundingClientRect().top + window.scrollY - SMOOTH_SCROLL_OFFSET_PX;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  window.scrollTo({ top, behavior: reduceMotion ? 'auto' : 'smooth' });
}
