import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Project, User } from '@terrafund/contracts';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';
import { buildProject, buildUser } from '@/testing/builders';

const verified = buildUser({ kycStatus: 'approved', kycVerified: true, balance: 20_000.5 });
const project = buildProject();
const path = `/projects/${project._id}`;

function open(user: User, current: Project = project, handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(user, { [`GET /projects/${current._id}`]: () => ({ body: current }), ...handlers });
  return { ...renderApp(`/projects/${current._id}`), fetchMock };
}

/** The first visit loads the route module: give it time, so a busy machine does not fail the test. */
const heading = (title = project.title) => screen.findByRole('heading', { level: 1, name: title }, { timeout: 5000 });

const investBox = () => within(screen.getByRole('heading', { name: 'Invest in this project' }).parentElement!);
const amountInput = () => screen.getByRole('spinbutton', { name: 'Investment amount (USD)' });

describe('project detail', { timeout: 20_000 }, () => {
  it('shows the project: location, type, status, ROI, term, minimum investment and funding', async () => {
    open(verified);
    await heading();

    expect(screen.getByText('Lisbon, Portugal')).toBeInTheDocument();
    expect(screen.getAllByText('Residential')[0]).toBeInTheDocument();
    expect(screen.getByText('Available')).toBeInTheDocument();
    const figures = within(screen.getByLabelText('Key figures'));
    expect(figures.getByText('ROI').nextElementSibling).toHaveTextContent('8.5%');
    expect(figures.getByText('Term').nextElementSibling).toHaveTextContent('48 months');
    expect(figures.getByText('Minimum investment').nextElementSibling).toHaveTextContent('$5,000');
    const box = investBox();
    expect(box.getByRole('progressbar', { name: 'Funding progress' })).toHaveAttribute('aria-valuenow', '40');
    expect(box.getByText('$400,000 / $1,000,000')).toBeInTheDocument();
    expect(box.getByText('$600,000 still open for investment')).toBeInTheDocument();
    // The wallet balance beside the form, with its cents.
    expect(box.getByText('$20,000.50')).toBeInTheDocument();
  });

  it('shows the first picture large and switches it from the thumbnails, by mouse and by keyboard', async () => {
    const { user } = open(verified);
    await heading();

    const large = () => screen.getByRole('img', { name: /^Harbour View Residences, picture/ });
    expect(large()).toHaveAttribute('src', `${project.images[0]}/full`);
    expect(large()).toHaveAccessibleName('Harbour View Residences, picture 1 of 3');
    const thumbs = within(screen.getByRole('list', { name: 'Pictures' })).getAllByRole('button');
    expect(thumbs).toHaveLength(3);
    expect(thumbs[1]!.querySelector('img')).toHaveAttribute('src', `${project.images[1]}/thumb`);
    expect(thumbs[0]).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Show picture 2 of 3' }));
    expect(large()).toHaveAttribute('src', `${project.images[1]}/full`);
    expect(thumbs[1]).toHaveAttribute('aria-pressed', 'true');
    expect(thumbs[0]).toHaveAttribute('aria-pressed', 'false');

    // Arrow keys move along the thumbnails and show each picture.
    await user.keyboard('{ArrowRight}');
    expect(thumbs[2]).toHaveFocus();
    expect(large()).toHaveAttribute('src', `${project.images[2]}/full`);
    await user.keyboard('{Home}');
    expect(large()).toHaveAttribute('src', `${project.images[0]}/full`);
  });

  it('starts the amount at the minimum and disables Invest Now below it, saying why', async () => {
    const { user } = open(verified);
    await heading();

    const input = amountInput();
    expect(input).toHaveValue(5000);
    expect(input).toHaveAttribute('min', '5000');
    expect(input).toHaveAttribute('max', '600000');
    const invest = screen.getByRole('button', { name: 'Invest Now' });
    expect(invest).toBeEnabled();

    await user.clear(input);
    await user.type(input, '4999');
    expect(invest).toBeDisabled();
    expect(screen.getByText('Minimum investment is $5,000')).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription(/Minimum investment is \$5,000/);

    await user.clear(input);
    await user.type(input, '600001');
    expect(invest).toBeDisabled();
    expect(screen.getByText('The most you can invest in this project is $600,000')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, '12.345');
    expect(invest).toBeDisabled();
    expect(screen.getByText('Please enter a valid amount')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, '600000');
    expect(invest).toBeEnabled();
    expect(screen.queryByText(/Minimum investment is/)).not.toBeInTheDocument();
  });

  it('does not send an amount below the minimum, even when the form is submitted another way', async () => {
    const { user, fetchMock } = open(verified, project, { [`POST /projects/${project._id}/invest`]: () => ({ status: 201, body: {} }) });
    await heading();

    const input = amountInput();
    await user.clear(input);
    await user.type(input, '100');
    fireEvent.submit(input.closest('form')!);

    expect(screen.getByText('Minimum investment is $5,000')).toBeInTheDocument();
    expect(input).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', `/projects/${project._id}/invest`)).toHaveLength(0);
  });

  it('invests, says so, and refreshes the project, the balance, the dashboard and the transactions', async () => {
    const after = { ...project, funded: 407_500 };
    let invested = false;
    const { user, fetchMock, queryClient } = open(verified, project, {
      [`GET /projects/${project._id}`]: () => ({ body: invested ? after : project }),
      [`POST /projects/${project._id}/invest`]: () => {
        invested = true;
        return { status: 201, body: { transaction: { _id: 't1' }, project: after } };
      },
    });
    await heading();
    // What other screens keep: they must be marked stale by the investment.
    queryClient.setQueryData(['users', 'dashboard'], { totalAssets: 0 });
    queryClient.setQueryData(['transactions'], []);
    queryClient.setQueryData(['projects', 'list', { search: '', type: '', status: '' }], [project]);
    const profileCalls = () => callsTo(fetchMock, 'GET', '/users/profile').length;
    const before = profileCalls();

    const input = amountInput();
    await user.clear(input);
    await user.type(input, '7500');
    await user.click(screen.getByRole('button', { name: 'Invest Now' }));

    await expectToast('Your investment of $7,500 is being processed');
    expect(callsTo(fetchMock, 'POST', `/projects/${project._id}/invest`)).toEqual([{ amount: 7500 }]);
    expect(await investBox().findByText('$407,500 / $1,000,000')).toBeInTheDocument();
    await waitFor(() => expect(profileCalls()).toBeGreaterThan(before));
    expect(queryClient.getQueryState(['users', 'dashboard'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['transactions'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['projects', 'list', { search: '', type: '', status: '' }])?.isInvalidated).toBe(true);
    // Ready for another investment, from the minimum again.
    expect(amountInput()).toHaveValue(5000);
  });

  it('offers the last slice below the minimum, prefilled: "Invest the remaining X", and only exactly that', async () => {
    const nearlyFull = buildProject({ target: 12_000, funded: 10_000, minInvestment: 5_000 });
    const full = { ...nearlyFull, funded: 12_000 };
    const { user, fetchMock } = open(verified, nearlyFull, {
      [`POST /projects/${nearlyFull._id}/invest`]: () => ({ status: 201, body: { transaction: { _id: 't1' }, project: full } }),
    });
    await heading(nearlyFull.title);

    expect(amountInput()).toHaveValue(2000);
    expect(investBox().getByText('Invest the remaining $2,000')).toBeInTheDocument();
    expect(amountInput()).toHaveAccessibleDescription(expect.stringContaining('Invest the remaining $2,000'));
    expect(investBox().queryByText('Minimum $5,000')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invest Now' })).toBeEnabled();

    // Anything else below the minimum is still refused, with the amount that is accepted.
    await user.clear(amountInput());
    await user.type(amountInput(), '1500');
    expect(investBox().getByText('Minimum investment is $2,000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invest Now' })).toBeDisabled();

    await user.clear(amountInput());
    await user.type(amountInput(), '2000');
    await user.click(screen.getByRole('button', { name: 'Invest Now' }));
    await expectToast('Your investment of $2,000 is being processed');
    expect(callsTo(fetchMock, 'POST', `/projects/${nearlyFull._id}/invest`)).toEqual([{ amount: 2000 }]);
  });

  it('shows the amount with its cents when it has any', async () => {
    const { user } = open(verified, project, {
      [`POST /projects/${project._id}/invest`]: () => ({ status: 201, body: { transaction: { _id: 't1' }, project } }),
    });
    await heading();
    await user.clear(amountInput());
    await user.type(amountInput(), '5000.5');
    await user.click(screen.getByRole('button', { name: 'Invest Now' }));
    await expectToast('Your investment of $5,000.50 is being processed');
  });

  it("toasts the server's refusal, or \"Failed to process investment\" when it gives none, once", async () => {
    let reply = { status: 400, body: { message: 'Insufficient balance', code: 'VALIDATION_ERROR' } as unknown };
    const { user } = open(verified, project, { [`POST /projects/${project._id}/invest`]: () => reply });
    await heading();

    await user.click(screen.getByRole('button', { name: 'Invest Now' }));
    await expectToast('Insufficient balance');
    expect(screen.getAllByText('Insufficient balance')).toHaveLength(1);

    reply = { status: 502, body: undefined };
    await user.click(screen.getByRole('button', { name: 'Invest Now' }));
    await expectToast('Failed to process investment');
  });

  it.each([
    {
      name: 'tells a member without approved KYC why they cannot invest, and links to /kyc instead of the button',
      kycStatus: 'not_started' as const,
      notice: 'Please complete your KYC verification before investing',
      link: 'Complete KYC verification',
    },
    {
      name: 'tells a member whose KYC is under review that investing opens once it is approved',
      kycStatus: 'pending' as const,
      notice: 'Verification in progress',
      link: 'View verification status',
    },
  ])('$name', async ({ kycStatus, notice, link }) => {
    open(buildUser({ kycStatus }));
    await heading();

    expect(screen.queryByRole('button', { name: 'Invest Now' })).not.toBeInTheDocument();
    expect(screen.getByText(notice)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: link })).toHaveAttribute('href', '/kyc');
  });

  it('disables Invest Now on a project that is not available or fully funded, with the reason', async () => {
    const sold = buildProject({ status: 'sold', title: 'Sold Tower' });
    open(verified, sold);
    await heading('Sold Tower');
    expect(screen.getByRole('button', { name: 'Invest Now' })).toBeDisabled();
    expect(screen.getByText('This project is not open for investment')).toBeInTheDocument();
  });

  it('says a project is fully funded', async () => {
    const full = buildProject({ funded: 1_000_000, title: 'Full House' });
    open(verified, full);
    await heading('Full House');
    expect(screen.getByRole('button', { name: 'Invest Now' })).toBeDisabled();
    expect(screen.getByText('This project is fully funded')).toBeInTheDocument();
    expect(amountInput()).toBeDisabled();
  });

  it('shows Overview, Details and Documents tabs, with documents opening in a new tab', async () => {
    const { user } = open(verified);
    await heading();

    const tabs = screen.getByRole('tablist', { name: 'Project information' });
    expect(within(tabs).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Overview', 'Details', 'Documents']);
    let panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText(project.description)).toBeInTheDocument();
    expect(within(panel).getByText('Rooftop terrace')).toBeInTheDocument();
    expect(within(panel).getByText('Underground parking')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Details' }));
    panel = screen.getByRole('tabpanel', { name: 'Details' });
    const value = (label: string) => within(panel).getByText(label, { selector: 'dt' }).nextElementSibling;
    const details = {
      'Property type': 'Apartment building',
      Size: '3,800 m²',
      Units: '42',
      'Year built': '2019',
      'Occupancy rate': '96.5%',
      'Payment schedule': 'Quarterly',
      Target: '$1,000,000',
      Funded: '$400,000',
      Term: '48 months',
      'Minimum investment': '$5,000',
      'Start date': 'Mar 01, 2026',
      'End date': 'Feb 28, 2030',
    };
    for (const [label, text] of Object.entries(details)) expect(value(label)).toHaveTextContent(text);

    // The tab list is one tab stop; arrow keys move along it.
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Documents' })).toHaveAttribute('aria-selected', 'true');
    panel = screen.getByRole('tabpanel', { name: 'Documents' });
    const links = within(panel).getAllByRole('link', { name: 'View Document' });
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAccessibleDescription('Investment brochure Opens in a new tab');
    expect(links[1]).toHaveAccessibleDescription('Valuation report Opens in a new tab');
    expect(links[0]).toHaveAttribute('href', project.details.documents[0]!.url);
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]!.getAttribute('rel')).toContain('noopener');
  });

  it('says so when a project has no documents', async () => {
    const { user } = open(verified, buildProject({ title: 'Bare Plot', details: { ...project.details, documents: [], features: [] } }));
    await heading('Bare Plot');
    expect(screen.getByText('No key features listed.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Documents' }));
    expect(within(screen.getByRole('tabpanel', { name: 'Documents' })).getByText('No documents yet')).toBeInTheDocument();
  });

  it('shows "Project Not Found" with a way back for a missing project, without a toast', async () => {
    signIn(verified, { 'GET /projects/nope': () => ({ status: 404, body: { message: 'Project not found', code: 'NOT_FOUND' } }) });
    renderApp('/projects/nope');

    expect(await screen.findByText('Project Not Found', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText("The project you're looking for doesn't exist or has been removed.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Projects' })).toHaveAttribute('href', '/projects');
    expect(screen.queryByText('Project not found')).not.toBeInTheDocument();
  });

  it('toasts "Failed to load project details" when the project cannot be loaded', async () => {
    signIn(verified, { [`GET /projects/${project._id}`]: () => ({ status: 403, body: { message: 'You do not have permission to do this', code: 'FORBIDDEN' } }) });
    renderApp(path);

    await expectToast('Failed to load project details');
    expect(screen.queryByText('You do not have permission to do this')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
