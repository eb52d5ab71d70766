import sharp from 'sharp';
import type { CreateProjectBody, Project, ProjectAsset } from '@terrafund/contracts';
import { multipart } from './files';
import { bearer, createUser, loginAs, type TestContext } from './test-app';
import { bookAddress, fundWallet } from './withdrawals';

/** A complete, valid admin project form; `overrides` replace any top-level field. */
export const projectBody = (overrides: Partial<CreateProjectBody> = {}): CreateProjectBody => ({
  title: 'Oak Terrace Apartments',
  description: 'Forty apartments near the river, renovated in 2022.',
  location: 'Portland, Oregon',
  type: 'residential',
  status: 'available',
  images: [],
  target: 100_000,
  roi: 8.5,
  term: 48,
  minInvestment: 5_000,
  startDate: '2026-01-01',
  endDate: '2030-01-01',
  details: {
    features: ['Balconies', 'Bike storage'],
    propertyType: 'Apartment building',
    size: '42,000 sq ft',
    units: 40,
    yearBuilt: 1998,
    occupancyRate: 93,
    paymentSchedule: 'quarterly',
    documents: [],
  },
  ...overrides,
});

/** Creates a project through the API as the given admin and returns it. */
export async function createProject(ctx: TestContext, adminToken: string, overrides: Partial<CreateProjectBody> = {}): Promise<Project> {
  const response = await ctx.app.inject({ method: 'POST', url: '/api/projects', headers: bearer(adminToken), payload: projectBody(overrides) });
  if (response.statusCode !== 201) throw new Error(`creating a project failed: ${response.statusCode} ${response.body}`);
  return response.json<Project>();
}

/** Credits a member's wallet through the ledger, as the payout job does. */
export const creditWallet = fundWallet;

/** A signed-in member with approved KYC and `cents` in the wallet. */
export async function investor(ctx: TestContext, cents: number) {
  const user = await createUser(ctx, { kycStatus: 'approved', kycVerified: true });
  if (cents > 0) await creditWallet(ctx, user.id, cents);
  // Withdrawals to the member's Bitcoin test address wait for an admin at once (no mailed confirmation).
  await bookAddress(ctx, user.id);
  return { user, token: await loginAs(ctx, user.email) };
}

/** A real JPEG / PNG / WebP photo-like image of the given size (a gradient, so it is not trivially small). */
export async function image(format: 'jpeg' | 'png' | 'webp', width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

/** POSTs a multipart upload to /api/projects/assets; `kind` goes first, as the web app sends it (null: no kind). */
export function uploadAsset(
  ctx: TestContext,
  token: string | undefined,
  file: { data: Buffer; filename?: string; contentType?: string } | undefined,
  kind: string | null = 'image',
) {
  const parts = [
    ...(kind !== null ? [{ name: 'kind', value: kind }] : []),
    ...(file ? [{ name: 'file', filename: file.filename ?? 'upload.bin', contentType: file.contentType, data: file.data }] : []),
  ];
  const body = multipart(parts);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/projects/assets',
    headers: { ...(token ? bearer(token) : {}), 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** Uploads a file that must be accepted, and returns the asset. */
export async function uploaded(ctx: TestContext, token: string, kind: 'image' | 'document', data: Buffer, filename?: string) {
  const response = await uploadAsset(ctx, token, { data, filename }, kind);
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  return response.json<ProjectAsset>();
}
