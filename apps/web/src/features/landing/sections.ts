/** Anchors of the sections the top bar scrolls to, shared by its buttons and the sections themselves. */
export const SECTION_IDS = { features: 'features', about: 'about', plans: 'plans' } as const;

export const LANDING_NAV = [
  { id: SECTION_IDS.features, label: 'Features' },
  { id: SECTION_IDS.about, label: 'About' },
  { id: SECTION_IDS.plans, label: 'Investment Plans' },
] as const;
