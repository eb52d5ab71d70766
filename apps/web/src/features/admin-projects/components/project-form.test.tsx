import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildProject } from '@/testing/builders';
import { assetUploads, pdf, png, uploadsTo } from '../testing/admin-projects-fixtures';

const thisYear = new Date().getFullYear();

async function visit(path: string, title: string) {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: title }, { timeout: 5000 });
  return view;
}

const field = (label: string | RegExp) => screen.getByLabelText(label);

type User = ReturnType<typeof renderApp>['user'];

/** Replaces a field's value the way pasting does: one input event, not one per letter (the form is long). */
async function fill(user: User, label: string, value: string) {
  await user.clear(field(label));
  await user.click(field(label));
  await user.paste(value);
}

/** Fills every required field of the form with valid values. */
async function fillRequired(user: User) {
  await fill(user, 'Title', 'Canal Side Studios');
  await fill(user, 'Location', 'Amsterdam, Netherlands');
  await user.selectOptions(field('Type'), 'commercial');
  await fill(user, 'Description', 'Creative studios beside the canal.');
  await fill(user, 'Target (USD)', '750000');
  await fill(user, 'Minimum investment (USD)', '2500');
  await fill(user, 'ROI (%)', '7.5');
  await fill(user, 'Term (months)', '36');
  await fill(user, 'Property type', 'Studios');
  await fill(user, 'Size', '2,400 m²');
  await fill(user, 'Units', '18');
  await fill(user, 'Year built', '1998');
  await fill(user, 'Occupancy rate (%)', '92.5');
  await user.selectOptions(field('Payment schedule'), 'monthly');
}

describe('admin project form', { timeout: 60_000 }, () => {
  it('shows the message of every required field and sends nothing', async () => {
    const fetchMock = signIn(admin);
    const { user } = await visit('/admin/projects/add', 'Add Project');

    await user.click(screen.getByRole('button', { name: 'Create Project' }));

    for (const message of [
      'Title is required',
      'Description is required',
      'Location is required',
      'Type must be residential, commercial or land',
      'Target must be an amount of at least 0',
      'Minimum investment must be an amount of at least 0',
      'ROI must be a number of at least 0, in steps of 0.1',
      'Term must be a whole number of months, at least 1',
      'Property type is required',
      'Size is required',
      'Units must be a whole number of at least 1',
      `Year built must be between 1800 and ${thisYear}`,
      'Occupancy rate must be between 0 and 100',
      'Payment schedule must be monthly, quarterly or annually',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(field('Title')).toHaveAccessibleDescription('Title is required');
    expect(callsTo(fetchMock, 'POST', '/projects')).toHaveLength(0);
  });

  it('applies each bound of the form rules', async () => {
    signIn(admin);
    const { user } = await visit('/admin/projects/add', 'Add Project');
    await fillRequired(user);

    const set = (label: string, value: string) => fill(user, label, value);
    await set('ROI (%)', '7.55');
    await set('Term (months)', '0');
    await set('Units', '0');
    await set('Year built', String(thisYear + 1));
    await set('Occupancy rate (%)', '100.5');
    await set('Target (USD)', '-1');
    await user.click(screen.getByRole('button', { name: 'Create Project' }));

    expect(await screen.findByText('ROI must be a number of at least 0, in steps of 0.1')).toBeInTheDocument();
    expect(screen.getByText('Term must be a whole number of months, at least 1')).toBeInTheDocument();
    expect(screen.getByText('Units must be a whole number of at least 1')).toBeInTheDocument();
    expect(screen.getByText(`Year built must be between 1800 and ${thisYear}`)).toBeInTheDocument();
    expect(screen.getByText('Occupancy rate must be between 0 and 100')).toBeInTheDocument();
    expect(screen.getByText('Target must be an amount of at least 0')).toBeInTheDocument();

    await set('ROI (%)', '7.5');
    await set('Term (months)', '36');
    await set('Units', '18');
    await set('Year built', '1799');
    await set('Occupancy rate (%)', '92.5');
    await set('Target (USD)', '1000');
    await set('Minimum investment (USD)', '1000.01');
    await user.type(field('Start date (optional)'), '2026-06-01');
    await user.type(field('End date (optional)'), '2026-05-31');
    await user.click(screen.getByRole('button', { name: 'Create Project' }));

    expect(await screen.findByText(`Year built must be between 1800 and ${thisYear}`)).toBeInTheDocument();
    await set('Year built', '1998');
    await user.click(screen.getByRole('button', { name: 'Create Project' }));
    // The cross-field rules, once every field is valid on its own.
    expect(await screen.findByText('Minimum investment cannot be above the target')).toBeInTheDocument();
    expect(screen.getByText('End date must be on or after the start date')).toBeInTheDocument();
  });

  it('creates a project from every field, with numbers as numbers, the chosen status, pictures in order and named documents', async () => {
    const created = buildProject({ title: 'Canal Side Studios' });
    const fetchMock = signIn(admin, {
      'POST /projects/assets': assetUploads(),
      'POST /projects': () => ({ status: 201, body: created }),
      'GET /projects': () => ({ body: [created] }),
    });
    const { user, router } = await visit('/admin/projects/add', 'Add Project');
    await fillRequired(user);
    await user.selectOptions(field('Status'), 'reserved');
    await user.type(field('Start date (optional)'), '2026-06-01');

    // Two pictures at once, a third after; then the third is made the cover and the second removed.
    await user.upload(screen.getByLabelText('Upload pictures'), [png('front.png'), png('hall.png')]);
    await screen.findByRole('img', { name: 'Picture 2' });
    await user.upload(screen.getByLabelText('Upload pictures'), png('roof.png'));
    await screen.findByRole('img', { name: 'Picture 3' });
    expect(screen.getByRole('img', { name: 'Picture 1' })).toHaveAttribute('src', '/api/projects/assets/eeeeeeee-eeee-4eee-8eee-000000000001/thumb');
    await user.click(screen.getByRole('button', { name: 'Move picture 3 earlier' }));
    await user.click(screen.getByRole('button', { name: 'Move picture 2 earlier' }));
    await user.click(screen.getByRole('button', { name: 'Remove picture 3' }));
    expect(within(screen.getByRole('list', { name: 'Pictures' })).getByText('Cover')).toBeInTheDocument();

    await user.type(field('New key feature'), 'Canal views{Enter}');
    await user.type(field('New key feature'), 'Bike storage');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.type(field('New key feature'), 'Lift');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(screen.getByRole('button', { name: 'Remove feature Lift' }));

    await user.upload(screen.getByLabelText('Upload document'), pdf('Floor plans.pdf'));
    const docName = await screen.findByLabelText('Name of document 1');
    expect(docName).toHaveValue('Floor plans');
    await fill(user, 'Name of document 1', 'Floor plans (2026)');

    await user.click(screen.getByRole('button', { name: 'Create Project' }));

    await expectToast('Project created successfully');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/projects'));
    // The kind before the file in the body, and in the address too (the server sizes its refusal by it).
    const upload = (kind: string, file: string) => ({ query: { kind }, fields: [['kind', kind], ['file', file]] });
    expect(uploadsTo(fetchMock, '/projects/assets')).toEqual([
      upload('image', 'front.png'),
      upload('image', 'hall.png'),
      upload('image', 'roof.png'),
      upload('document', 'Floor plans.pdf'),
    ]);
    expect(callsTo(fetchMock, 'POST', '/projects')).toEqual([
      {
        title: 'Canal Side Studios',
        description: 'Creative studios beside the canal.',
        location: 'Amsterdam, Netherlands',
        type: 'commercial',
        status: 'reserved',
        images: ['/api/projects/assets/eeeeeeee-eeee-4eee-8eee-000000000003', '/api/projects/assets/eeeeeeee-eeee-4eee-8eee-000000000001'],
        target: 750000,
        roi: 7.5,
        term: 36,
        minInvestment: 2500,
        startDate: '2026-06-01',
        endDate: null,
        details: {
          features: ['Canal views', 'Bike storage'],
          propertyType: 'Studios',
          size: '2,400 m²',
          units: 18,
          yearBuilt: 1998,
          occupancyRate: 92.5,
          paymentSchedule: 'monthly',
          documents: [{ name: 'Floor plans (2026)', url: '/api/projects/assets/eeeeeeee-eeee-4eee-8eee-000000000004' }],
        },
      },
    ]);
  });

  it('refuses a picture of the wrong type or over 10MB before uploading it', async () => {
    const fetchMock = signIn(admin, { 'POST /projects/assets': assetUploads() });
    const { user } = await visit('/admin/projects/add', 'Add Project');

    expect(screen.getByText(/PNG, JPG up to 10MB/)).toBeInTheDocument();
    const big = png('huge.png');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(screen.getByLabelText('Upload pictures'), big);
    expect(await screen.findByText('Image size must be less than 10MB')).toBeInTheDocument();

    // The picker offers only PNG, JPG and WEBP; a file dropped past it is still checked.
    await userEvent.setup({ applyAccept: false }).upload(screen.getByLabelText('Upload pictures'), new File(['GIF89a'], 'anim.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Invalid file type. Please upload a PNG, JPG or WEBP image')).toBeInTheDocument();
    expect(uploadsTo(fetchMock, '/projects/assets')).toHaveLength(0);
  });

  it("shows the server's upload refusal beside the pictures", async () => {
    signIn(admin, { 'POST /projects/assets': () => ({ status: 415, body: { message: 'Invalid file type. Please upload a PNG, JPG or WEBP image', code: 'UNSUPPORTED_MEDIA_TYPE' } }) });
    const { user } = await visit('/admin/projects/add', 'Add Project');
    await user.upload(screen.getByLabelText('Upload pictures'), png('fake.png'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid file type. Please upload a PNG, JPG or WEBP image');
    expect(screen.queryByRole('img', { name: 'Picture 1' })).not.toBeInTheDocument();
  });

  it("puts the server's field messages under their fields and toasts its message once", async () => {
    signIn(admin, {
      'POST /projects': () => ({
        status: 400,
        body: { message: 'Units must be a whole number of at least 1', code: 'VALIDATION_ERROR', fields: { 'details.units': 'Units must be a whole number of at least 1' } },
      }),
    });
    const { user } = await visit('/admin/projects/add', 'Add Project');
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Create Project' }));

    await expectToast('Units must be a whole number of at least 1');
    await waitFor(() => expect(field('Units')).toHaveAccessibleDescription('Units must be a whole number of at least 1'));
    expect(field('Units')).toHaveFocus();
  });

  it('toasts "Failed to create project" when the server gives no reason', async () => {
    signIn(admin, { 'POST /projects': () => ({ status: 502 }) });
    const { user, router } = await visit('/admin/projects/add', 'Add Project');
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Create Project' }));

    await expectToast('Failed to create project');
    expect(router.state.location.pathname).toBe('/admin/projects/add');
  });
});

describe('admin project edit', { timeout: 60_000 }, () => {
  const stored = buildProject({ status: 'available', startDate: '2026-03-01', endDate: null });
  const editPath = `/admin/projects/edit?id=${stored._id}`;

  it('loads the project from the API, fills every field, and sends only what changed', async () => {
    const fetchMock = signIn(admin, {
      [`GET /projects/${stored._id}`]: () => ({ body: stored }),
      [`PATCH /projects/${stored._id}`]: () => ({ body: { ...stored, title: 'Harbour View II', status: 'sold' } }),
      'GET /projects': () => ({ body: [stored] }),
    });
    const { user, router } = await visit(editPath, 'Edit Project');

    await waitFor(() => expect(field('Title')).toHaveValue('Harbour View Residences'), { timeout: 5000 });
    expect(field('Location')).toHaveValue('Lisbon, Portugal');
    expect(field('Type')).toHaveValue('residential');
    expect(field('Status')).toHaveValue('available');
    expect(field('Description')).toHaveValue(stored.description);
    expect(field('Target (USD)')).toHaveValue(1_000_000);
    expect(field('Minimum investment (USD)')).toHaveValue(5000);
    expect(field('ROI (%)')).toHaveValue(8.5);
    expect(field('Term (months)')).toHaveValue(48);
    expect(field('Start date (optional)')).toHaveValue('2026-03-01');
    expect(field('End date (optional)')).toHaveValue('');
    expect(field('Property type')).toHaveValue('Apartment building');
    expect(field('Size')).toHaveValue('3,800 m²');
    expect(field('Units')).toHaveValue(42);
    expect(field('Year built')).toHaveValue(2019);
    expect(field('Occupancy rate (%)')).toHaveValue(96.5);
    expect(field('Payment schedule')).toHaveValue('quarterly');
    expect(screen.getAllByRole('img', { name: /^Picture \d$/ })).toHaveLength(3);
    expect(within(screen.getByRole('list', { name: 'Key features' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Rooftop terrace',
      'Underground parking',
    ]);
    expect(field('Name of document 1')).toHaveValue('Investment brochure');
    expect(field('Name of document 2')).toHaveValue('Valuation report');

    await user.clear(field('Title'));
    await user.type(field('Title'), 'Harbour View II');
    await user.selectOptions(field('Status'), 'sold');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await expectToast('Project updated successfully');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/projects'));
    expect(callsTo(fetchMock, 'PATCH', `/projects/${stored._id}`)).toEqual([{ title: 'Harbour View II', status: 'sold' }]);
  });

  it('sends the whole details when one of them changed, since the API replaces them as one', async () => {
    const fetchMock = signIn(admin, {
      [`GET /projects/${stored._id}`]: () => ({ body: stored }),
      [`PATCH /projects/${stored._id}`]: () => ({ body: stored }),
      'GET /projects': () => ({ body: [stored] }),
    });
    const { user } = await visit(editPath, 'Edit Project');
    await waitFor(() => expect(field('Units')).toHaveValue(42), { timeout: 5000 });

    await user.clear(field('Units'));
    await user.type(field('Units'), '44');
    await user.click(screen.getByRole('button', { name: 'Remove document 2' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await expectToast('Project updated successfully');
    expect(callsTo(fetchMock, 'PATCH', `/projects/${stored._id}`)).toEqual([
      { details: { ...stored.details, units: 44, documents: [stored.details.documents[0]] } },
    ]);
  });

  it('shows the server message, or "Failed to update project", when saving fails', async () => {
    let reply: { status: number; body?: unknown } = {
      status: 400,
      body: { message: 'Target cannot be below the amount already invested ($400,000)', code: 'VALIDATION_ERROR', fields: { target: 'Target cannot be below the amount already invested ($400,000)' } },
    };
    signIn(admin, { [`GET /projects/${stored._id}`]: () => ({ body: stored }), [`PATCH /projects/${stored._id}`]: () => reply });
    const { user } = await visit(editPath, 'Edit Project');
    await waitFor(() => expect(field('Target (USD)')).toHaveValue(1_000_000), { timeout: 5000 });

    await user.clear(field('Target (USD)'));
    await user.type(field('Target (USD)'), '300000');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await expectToast('Target cannot be below the amount already invested ($400,000)');
    expect(field('Target (USD)')).toHaveAccessibleDescription('Target cannot be below the amount already invested ($400,000)');

    reply = { status: 502 };
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await expectToast('Failed to update project');
  });

  it('shows a not-found state with a way back for a missing project', async () => {
    signIn(admin, { 'GET /projects/missing': () => ({ status: 404, body: { message: 'Project not found', code: 'NOT_FOUND' } }) });
    await visit('/admin/projects/edit?id=missing', 'Edit Project');

    expect(await screen.findByText('Project Not Found')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Back to Projects' }).at(-1)).toHaveAttribute('href', '/admin/projects');
  });

  it('shows the not-found state when the address names no project', async () => {
    const fetchMock = signIn(admin);
    await visit('/admin/projects/edit', 'Edit Project');
    expect(await screen.findByText('Project Not Found')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([input]) => String(input).startsWith('/api/projects'))).toHaveLength(0);
  });
});
