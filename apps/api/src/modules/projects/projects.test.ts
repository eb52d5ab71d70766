import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages, type CreateProjectBody, type Project } from '@terrafund/contracts';
import { createProject, investor, projectBody } from '../../../test/project-fixtures';
import { apiCaller, createMemberAndAdmin, randomId, rows, useTestApp } from '../../../test/test-app';

const m = messages.projects;
const thisYear = new Date().getUTCFullYear();

describe('projects: catalogue, detail and the admin CRUD', () => {
  const ctx = useTestApp();
  let adminToken: string;
  let memberToken: string;
  let admin: Awaited<ReturnType<typeof createMemberAndAdmin>>['admin'];
  beforeAll(async () => {
    ({ admin, adminToken, memberToken } = await createMemberAndAdmin(ctx));
  });

  const call = apiCaller(() => ctx);

  describe('the catalogue', () => {
    let made: Record<string, Project>;
    beforeAll(async () => {
      const specs: [key: string, overrides: Partial<CreateProjectBody>][] = [
        ['harbor', { title: 'Harbor Lights Condos', description: 'Waterfront condos.', location: 'Seattle, Washington', type: 'residential' }],
        ['vineyard', { title: 'Hillside Estate', description: 'A working VINEYARD with a tasting room.', location: 'Napa, California', type: 'land' }],
        ['denver', { title: 'Union Station Offices', description: 'Offices by the rail hub.', location: 'Denver, Colorado', type: 'commercial', status: 'sold' }],
        ['percent', { title: '100% Solar Farm', description: 'Panels on leased fields.', location: 'Tucson, Arizona', type: 'land', status: 'reserved' }],
        ['underscore', { title: 'Lot_7 Warehouse', description: 'A warehouse.', location: 'Reno, Nevada', type: 'commercial' }],
        ['oak', { title: 'Oak Park Homes', description: 'Family homes on a harbor-side street.', location: 'Chicago, Illinois', type: 'residential', status: 'reserved' }],
      ];
      made = {};
      for (const [key, overrides] of specs) {
        ctx.clock.advance(1000);
        made[key] = await createProject(ctx, adminToken, overrides);
      }
    });

    const titles = async (query: string) => {
      const response = await call('GET', `/projects${query}`, memberToken);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
      return response.json<Project[]>().map((p) => p.title);
    };
    const titleOf = (...keys: string[]) => keys.map((k) => made[k]!.title);

    it('lists every project newest first, each with its owner', async () => {
      expect(await titles('')).toEqual(titleOf('oak', 'underscore', 'percent', 'denver', 'vineyard', 'harbor'));
      const [first] = (await call('GET', '/projects', adminToken)).json<Project[]>();
      expect(first!.owner).toEqual({ _id: admin.id, firstName: admin.firstName, lastName: admin.lastName, email: admin.email });
      // Empty filters mean "all", as the spec's client may send them.
      expect(await titles('?search=&type=&status=')).toHaveLength(6);
    });

    it('shows members each owner by name only: no e-mail address in the list or a project, admins get it', async () => {
      const list = await call('GET', '/projects', memberToken);
      expect(list.body).not.toContain(admin.email);
      for (const project of list.json<Project[]>()) {
        expect(project.owner).toEqual({ _id: admin.id, firstName: admin.firstName, lastName: admin.lastName });
        expect(project.owner).not.toHaveProperty('email');
      }
      const one = await call('GET', `/projects/${made.oak!._id}`, memberToken);
      expect(one.statusCode).toBe(200);
      expect(one.body).not.toContain(admin.email);
      expect(one.json<Project>().owner).toEqual({ _id: admin.id, firstName: admin.firstName, lastName: admin.lastName });

      const seenByAdmin = await call('GET', `/projects/${made.oak!._id}`, adminToken);
      expect(seenByAdmin.json<Project>().owner).toEqual({ _id: admin.id, firstName: admin.firstName, lastName: admin.lastName, email: admin.email });
      expect((await call('GET', '/projects', adminToken)).json<Project[]>().every((p) => p.owner.email === admin.email)).toBe(true);
    });

    it('searches title, description and location, case-insensitively', async () => {
      expect(await titles('?search=harbor')).toEqual(titleOf('oak', 'harbor'));
      expect(await titles('?search=HARBOR%20LIGHTS')).toEqual(titleOf('harbor'));
      expect(await titles('?search=vineyard')).toEqual(titleOf('vineyard'));
      expect(await titles('?search=Denver')).toEqual(titleOf('denver'));
      expect(await titles('?search=%20%20napa%20')).toEqual(titleOf('vineyard'));
      expect(await titles('?search=atlantis')).toEqual([]);
    });

    it('takes % and _ literally, not as wildcards', async () => {
      expect(await titles('?search=%25')).toEqual(titleOf('percent'));
      expect(await titles('?search=_')).toEqual(titleOf('underscore'));
      expect(await titles('?search=o_k')).toEqual([]);
      expect(await titles('?search=100%25%20s')).toEqual(titleOf('percent'));
      expect(await titles(`?search=${encodeURIComponent('\\')}`)).toEqual([]);
    });

    it('filters by type and status, alone and together with search', async () => {
      expect(await titles('?type=land')).toEqual(titleOf('percent', 'vineyard'));
      expect(await titles('?status=reserved')).toEqual(titleOf('oak', 'percent'));
      expect(await titles('?type=residential&status=reserved')).toEqual(titleOf('oak'));
      expect(await titles('?type=residential&search=harbor')).toEqual(titleOf('oak', 'harbor'));
      expect(await titles('?type=residential&status=available&search=harbor')).toEqual(titleOf('harbor'));
      expect(await titles('?type=commercial&status=sold&search=rail')).toEqual(titleOf('denver'));
      expect(await titles('?type=land&search=harbor')).toEqual([]);
    });

    it('refuses unknown filters values, and callers without a session', async () => {
      const badType = await call('GET', '/projects?type=castle', memberToken);
      expect(badType.statusCode).toBe(400);
      expect(badType.json().message).toBe(m.typeInvalid);
      expect((await call('GET', '/projects?status=funding', memberToken)).json().message).toBe(m.statusInvalid);
      expect((await call('GET', '/projects?search=a&search=b', memberToken)).statusCode).toBe(400);
      expect((await call('GET', `/projects?search=${'x'.repeat(101)}`, memberToken)).statusCode).toBe(400);
      expect((await call('GET', '/projects')).statusCode).toBe(401);
      expect((await call('GET', `/projects/${made.harbor!._id}`)).statusCode).toBe(401);
    });

    it('answers one project by id, and 404 for a missing or malformed id', async () => {
      const response = await call('GET', `/projects/${made.denver!._id}`, adminToken);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(made.denver);
      for (const id of [randomId(), 'not-a-uuid', '123', `${made.denver!._id}x`, "1' or '1'='1"]) {
        const missing = await call('GET', `/projects/${encodeURIComponent(id)}`, memberToken);
        expect(missing.statusCode, id).toBe(404);
        expect(missing.json()).toEqual({ message: m.notFound, code: 'NOT_FOUND' });
      }
    });
  });

  describe('creating', () => {
    it('makes the admin the owner, starts unfunded and stores money in cents and ROI in hundredths', async () => {
      const response = await call('POST', '/projects', adminToken, {
        ...projectBody({ target: 250_000.5, minInvestment: 5_000.25, roi: 7.3 }),
        funded: 99_999,
        owner: { _id: randomId() },
        _id: randomId(),
      });
      expect(response.statusCode).toBe(201);
      const project = response.json<Project>();
      expect(project).toMatchObject({ target: 250_000.5, minInvestment: 5_000.25, roi: 7.3, funded: 0, term: 48, status: 'available' });
      expect(project.owner._id).toBe(admin.id);
      const [stored] = await rows<{ target_cents: string; min_investment_cents: string; roi_basis_points: number; funded_cents: string }>(
        ctx,
        sql`select target_cents::text, min_investment_cents::text, roi_basis_points, funded_cents::text from projects where id = ${project._id}`,
      );
      expect(stored).toEqual({ target_cents: '25000050', min_investment_cents: '500025', roi_basis_points: 730, funded_cents: '0' });
      const [audit] = await rows<{ action: string; actor_id: string }>(ctx, sql`select action, actor_id from audit_log where target_id = ${project._id}`);
      expect(audit).toEqual({ action: 'project.created', actor_id: admin.id });
    });

    it('defaults the status to available and the images to none', async () => {
      const { status: _status, images: _images, ...body } = projectBody();
      const response = await call('POST', '/projects', adminToken, body);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ status: 'available', images: [] });
    });

    it('accepts every bound at its edge', async () => {
      const edges: Partial<CreateProjectBody>[] = [
        { roi: 0, term: 1, target: 0, minInvestment: 0 },
        { roi: 0.1 },
        { target: 10, minInvestment: 10 },
        { details: { ...projectBody().details, yearBuilt: 1800, occupancyRate: 0, units: 1 } },
        { details: { ...projectBody().details, yearBuilt: thisYear, occupancyRate: 100 } },
        { startDate: '2026-05-01', endDate: '2026-05-01' },
        { startDate: null, endDate: null },
      ];
      for (const overrides of edges) {
        const response = await call('POST', '/projects', adminToken, projectBody(overrides));
        expect(response.statusCode, JSON.stringify(overrides)).toBe(201);
      }
    });
  });

  /** Every form rule (docs/product.md §10 Messages), as [what is sent, the field named, the message]. */
  const details = (d: Record<string, unknown>) => ({ details: { ...projectBody().details, ...d } });
  const ruleCases: [overrides: Record<string, unknown>, field: string, message: string][] = [
    [{ title: '' }, 'title', m.titleRequired],
    [{ title: '   ' }, 'title', m.titleRequired],
    [{ title: undefined }, 'title', m.titleRequired],
    [{ description: '' }, 'description', m.descriptionRequired],
    [{ location: '' }, 'location', m.locationRequired],
    [{ type: 'castle' }, 'type', m.typeInvalid],
    [{ status: 'funding' }, 'status', m.statusInvalid],
    [{ roi: -0.1 }, 'roi', m.roiInvalid],
    [{ roi: 8.55 }, 'roi', m.roiInvalid],
    [{ roi: '8.5' }, 'roi', m.roiInvalid],
    [{ term: 0 }, 'term', m.termInvalid],
    [{ term: 12.5 }, 'term', m.termInvalid],
    [{ target: -1 }, 'target', m.targetInvalid],
    [{ target: 100.001 }, 'target', m.targetInvalid],
    [{ minInvestment: -0.01 }, 'minInvestment', m.minInvestmentInvalid],
    [{ minInvestment: 100_000.01 }, 'minInvestment', m.minInvestmentAboveTarget],
    [details({ units: 0 }), 'details.units', m.unitsInvalid],
    [details({ units: 2.5 }), 'details.units', m.unitsInvalid],
    [details({ yearBuilt: 1799 }), 'details.yearBuilt', m.yearBuiltInvalid(thisYear)],
    [details({ yearBuilt: thisYear + 1 }), 'details.yearBuilt', m.yearBuiltInvalid(thisYear)],
    [details({ occupancyRate: -1 }), 'details.occupancyRate', m.occupancyInvalid],
    [details({ occupancyRate: 100.5 }), 'details.occupancyRate', m.occupancyInvalid],
    [details({ paymentSchedule: 'weekly' }), 'details.paymentSchedule', m.paymentScheduleInvalid],
    [details({ propertyType: '' }), 'details.propertyType', m.propertyTypeRequired],
    [details({ size: '' }), 'details.size', m.sizeRequired],
    [{ startDate: '2026-02-30' }, 'startDate', m.dateInvalid],
    [{ startDate: '2026-06-01', endDate: '2026-05-31' }, 'endDate', m.datesInvalid],
    [{ images: ['https://example.com/photo.jpg'] }, 'images.0', m.imageUrlInvalid],
    [{ images: ['/api/projects/assets/../../users'] }, 'images.0', m.imageUrlInvalid],
    [{ images: [`/api/projects/assets/${randomId()}`] }, 'images', m.assetNotFound],
    [details({ documents: [{ name: 'Brochure', url: 'javascript:alert(1)' }] }), 'details.documents.0.url', m.documentInvalid],
    [details({ documents: [{ name: 'Brochure', url: `/api/projects/assets/${randomId()}` }] }), 'details.documents', m.assetNotFound],
  ];

  it('refuses each broken rule on create, naming the field with the spec message', async () => {
    const before = await rows(ctx, sql`select count(*)::int as n from projects`);
    for (const [overrides, field, message] of ruleCases) {
      const response = await call('POST', '/projects', adminToken, projectBody(overrides as Partial<CreateProjectBody>));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().fields?.[field], JSON.stringify(overrides)).toBe(message);
    }
    expect(await rows(ctx, sql`select count(*)::int as n from projects`)).toEqual(before);
  });

  describe('editing', () => {
    it('changes only what is sent: an empty PATCH changes nothing', async () => {
      const project = await createProject(ctx, adminToken, { status: 'reserved', images: [], details: { ...projectBody().details, features: ['Pool'] } });
      const empty = await call('PATCH', `/projects/${project._id}`, adminToken, {});
      expect(empty.statusCode).toBe(200);
      expect({ ...empty.json(), updatedAt: project.updatedAt }).toEqual(project);

      ctx.clock.advance(1000);
      const renamed = await call('PATCH', `/projects/${project._id}`, adminToken, { title: 'Renamed', status: 'sold', startDate: null });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ title: 'Renamed', status: 'sold', startDate: null, description: project.description, details: project.details });
      expect(renamed.json().updatedAt).not.toBe(project.updatedAt);
    });

    it('checks the merged project against every rule', async () => {
      const project = await createProject(ctx, adminToken, { target: 100_000, minInvestment: 5_000 });
      const cases: [body: Record<string, unknown>, field: string, message: string][] = [
        [{ minInvestment: 100_001 }, 'minInvestment', m.minInvestmentAboveTarget],
        [{ target: 4_999 }, 'minInvestment', m.minInvestmentAboveTarget],
        [{ endDate: '2025-12-31' }, 'endDate', m.datesInvalid],
        ...ruleCases.filter(([overrides]) => !('title' in overrides && overrides.title === undefined)),
      ];
      for (const [body, field, message] of cases) {
        const response = await call('PATCH', `/projects/${project._id}`, adminToken, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().fields?.[field], JSON.stringify(body)).toBe(message);
      }
      expect((await call('GET', `/projects/${project._id}`, adminToken)).json()).toEqual(project);
      // Both sides of the rule at once are fine.
      const both = await call('PATCH', `/projects/${project._id}`, adminToken, { target: 4_000, minInvestment: 4_000 });
      expect(both.statusCode).toBe(200);
    });

    it('keeps the target at or above what members invested', async () => {
      const project = await createProject(ctx, adminToken, { target: 100_000, minInvestment: 5_000 });
      const member = await investor(ctx, 30_000_00);
      expect((await call('POST', `/projects/${project._id}/invest`, member.token, { amount: 20_000 })).statusCode).toBe(201);
      const below = await call('PATCH', `/projects/${project._id}`, adminToken, { target: 19_999.99 });
      expect(below.statusCode).toBe(400);
      expect(below.json().fields).toEqual({ target: m.targetBelowFunded('$20,000') });
      const equal = await call('PATCH', `/projects/${project._id}`, adminToken, { target: 20_000, minInvestment: 1_000 });
      expect(equal.statusCode).toBe(200);
      expect(equal.json()).toMatchObject({ target: 20_000, funded: 20_000 });
    });
  });

  describe('deleting', () => {
    it('deletes a project nobody invested in', async () => {
      const project = await createProject(ctx, adminToken);
      const response = await call('DELETE', `/projects/${project._id}`, adminToken);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await call('GET', `/projects/${project._id}`, memberToken)).statusCode).toBe(404);
      expect((await call('DELETE', `/projects/${project._id}`, adminToken)).statusCode).toBe(404);
    });

    it('refuses to delete a project with investments (409) and keeps it', async () => {
      const project = await createProject(ctx, adminToken);
      const member = await investor(ctx, 10_000_00);
      expect((await call('POST', `/projects/${project._id}/invest`, member.token, { amount: 5_000 })).statusCode).toBe(201);
      const response = await call('DELETE', `/projects/${project._id}`, adminToken);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: m.hasInvestments, code: 'CONFLICT' });
      expect((await call('GET', `/projects/${project._id}`, memberToken)).json().funded).toBe(5_000);
    });
  });

  it('keeps writes for admins: anonymous 401, members 403', async () => {
    const project = await createProject(ctx, adminToken);
    const writes: [method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: object][] = [
      ['POST', '/projects', projectBody()],
      ['PATCH', `/projects/${project._id}`, { title: 'Hijacked' }],
      ['DELETE', `/projects/${project._id}`],
    ];
    for (const [method, url, body] of writes) {
      const anonymous = await call(method, url, undefined, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const member = await call(method, url, memberToken, body);
      expect(member.statusCode, `${method} ${url}`).toBe(403);
      expect(member.json().code).toBe('FORBIDDEN');
    }
    expect((await call('GET', `/projects/${project._id}`, adminToken)).json()).toEqual(project);
  });

  it('answers 404 for a missing or malformed id on every route that takes one', async () => {
    for (const id of [randomId(), 'nope', '00000000-0000-0000-0000-00000000000g']) {
      const responses = [
        await call('GET', `/projects/${id}`, memberToken),
        await call('PATCH', `/projects/${id}`, adminToken, { title: 'X' }),
        await call('DELETE', `/projects/${id}`, adminToken),
        await call('POST', `/projects/${id}/invest`, memberToken, { amount: 5_000 }),
      ];
      for (const response of responses) {
        expect(response.statusCode, id).toBe(404);
        expect(response.json().message).toBe(m.notFound);
      }
    }
  });
});
