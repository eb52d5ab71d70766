// Where projects' images and documents live and how many the dashboard shows, without schemas: the dashboard's
// project cards load no validation code (issue 17). The schemas are in projects.ts.

/** The widths (px) project images are served at: thumbnails, cards, the detail page's main image. */
export const PROJECT_IMAGE_SIZES = { thumb: 320, card: 640, full: 1600 } as const;
export type ProjectImageSize = keyof typeof PROJECT_IMAGE_SIZES;
/** How many projects the dashboard shows (docs/product.md §5.11 Projection). */
export const DASHBOARD_PROJECTS = 3;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The stable address of an uploaded image or document: `/api/projects/assets/<id>` (an image's `full` size). */
export const PROJECT_ASSET_URL_PATTERN = new RegExp(`^/api/projects/assets/(${UUID})$`, 'i');
export const projectAssetUrl = (id: string) => `/api/projects/assets/${id}`;
/** Where to load an image at one of PROJECT_IMAGE_SIZES: `<url>/thumb`, `<url>/card`, `<url>/full`. */
export const projectImageSrc = (url: string, size: ProjectImageSize) =>
  PROJECT_ASSET_URL_PATTERN.test(url) ? `${url}/${size}` : url;
/** The asset id in one of our asset URLs, if it is one. */
export const projectAssetId = (url: string): string | undefined => PROJECT_ASSET_URL_PATTERN.exec(url)?.[1]?.toLowerCase();
