/** Anchors of the sections the top bar scrolls to, shared by its buttons and the sections themselves. */
export const SECTION_IDS = { features: 'features', about: 'about', plans: 'plans' } as const;

/** The top bar's section buttons; `label` is the key of its text in the landing namespace. */
export const LANDING_NAV = [
  { id: SECTION_IDS.features, label: 'nav.features' },
  { id: SECTION_IDS.about, label: 'nav.about' },
  { id: SECTION_IDS.plans, label: 'nav.plans' },
] as const;
