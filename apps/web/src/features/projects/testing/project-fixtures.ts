import type { Project } from '@terrafund/contracts';

let sequence = 0;

/** A project as GET /projects answers it; ids are valid uuids, pictures our own asset addresses. */
export function buildProject(overrides: Partial<Project> = {}): Project {
  sequence += 1;
  const n = String(sequence).padStart(12, '0');
  return {
    _id: `11111111-1111-4111-8111-${n}`,
    owner: { _id: '00000000-0000-4000-8000-00000000a001', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
    title: 'Harbour View Residences',
    description: 'Forty-two apartments on the waterfront, let on long leases.',
    location: 'Lisbon, Portugal',
    type: 'residential',
    status: 'available',
    images: [
      '/api/projects/assets/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1',
      '/api/projects/assets/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2',
      '/api/projects/assets/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa3',
    ],
    target: 1_000_000,
    funded: 400_000,
    roi: 8.5,
    term: 48,
    minInvestment: 5000,
    startDate: '2026-03-01',
    endDate: '2030-02-28',
    details: {
      features: ['Rooftop terrace', 'Underground parking'],
      propertyType: 'Apartment building',
      size: '3,800 m²',
      units: 42,
      yearBuilt: 2019,
      occupancyRate: 96.5,
      paymentSchedule: 'quarterly',
      documents: [
        { name: 'Investment brochure', url: '/api/projects/assets/dddddddd-dddd-4ddd-8ddd-ddddddddddd1' },
        { name: 'Valuation report', url: '/api/projects/assets/dddddddd-dddd-4ddd-8ddd-ddddddddddd2' },
      ],
    },
    createdAt: '2026-02-01T09:00:00.000Z',
    updatedAt: '2026-02-01T09:00:00.000Z',
    ...overrides,
  };
}

/** The query strings of the GET calls the app made to one path. */
export function queriesTo(fetchMock: { mock: { calls: unknown[][] } }, path: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), method: (init as RequestInit | undefined)?.method ?? 'GET' }))
    .filter(({ url, method }) => method === 'GET' && url.pathname === `/api${path}`)
    .map(({ url }) => Object.fromEntries(url.searchParams));
}
