import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { LandingPage } from './components/landing-page';

function renderLandingPage(props: { contactEmail?: string; contactPhone?: string } = {}) {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <LandingPage contactEmail="invest@example.com" contactPhone="+1 (555) 010-2030" {...props} />
    </MemoryRouter>,
  );
  return { user };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('LandingPage', () => {
  it('sends the hero calls to action to registration and the plan page', () => {
    renderLandingPage();

    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /start your investment journey/i })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Explore investment plans' })).toHaveAttribute('href', '/wallet');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
  });

  it('shows the marketing claims, the four features and the three approach items', () => {
    renderLandingPage();

    for (const claim of ['$50M+', '1000+', '15+', '9-13%']) expect(screen.getByText(claim)).toBeInTheDocument();
    for (const title of [
      'Premium Properties',
      'Blockchain Security',
      'Crypto Currency Payments',
      'Maximum Returns',
      'Global Access',
      'Democratized Investing',
      'Cutting-Edge Technology',
    ]) {
      expect(screen.getByRole('heading', { level: 3, name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('region', { name: 'About Terrafund' })).toBeInTheDocument();
  });

  it('prints the income table exactly as the spec gives it', () => {
    renderLandingPage();

    const table = screen.getByRole('table', { name: /income by plan/i });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Plan', 'Price', 'Monthly', 'Yearly', '3 Years']);

    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [
        within(row).getByRole('rowheader').textContent,
        ...within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ]);
    expect(rows).toEqual([
      ['STARTIUM', '$700', '$31.25', '$375', '$1,125'],
      ['ULTIMIUM', '$1,200', '$75', '$900', '$2,700'],
      ['GOLD', '$2,500', '$112.50', '$1,350', '$4,050'],
      ['PLATINUM', '$5,000', '$250', '$3,000', '$9,000'],
    ]);
    expect(screen.getByText(/all plans are non-refundable/i)).toBeInTheDocument();
  });

  it('shows four plan cards that lead to registration, with GOLD as the most popular', () => {
    renderLandingPage();

    const cards = screen.getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'STARTIUM',
      'ULTIMIUM',
      'GOLD',
      'PLATINUM',
    ]);
    for (const card of cards) {
      expect(within(card).getByRole('link', { name: 'Get started today' })).toHaveAttribute('href', '/register');
    }

    const gold = screen.getByRole('article', { name: 'GOLD' });
    expect(within(gold).getByText('Most popular')).toBeInTheDocument();
    expect(within(gold).getByText('Premium investment experience')).toBeInTheDocument();
    expect(within(gold).getByText('$2,500')).toBeInTheDocument();
    expect(within(gold).getByText('$112.50')).toBeInTheDocument();
    for (const other of ['STARTIUM', 'ULTIMIUM', 'PLATINUM']) {
      expect(within(screen.getByRole('article', { name: other })).queryByText('Most popular')).not.toBeInTheDocument();
    }
  });

  it('scrolls smoothly to a section, 80 px below the top of the viewport', async () => {
    const { user } = renderLandingPage();
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(300);
    const plans = screen.getByRole('region', { name: /choose the membership/i });
    vi.spyOn(plans, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ x: 0, y: 1500, width: 1366, height: 900 }));

    await user.click(screen.getByRole('button', { name: 'Investment Plans' }));

    expect(plans).toHaveAttribute('id', 'plans');
    expect(scrollTo).toHaveBeenCalledWith({ top: 1500 + 300 - 80, behavior: 'smooth' });
  });

  it('shows the contact details it is given as mail and phone links', () => {
    renderLandingPage();

    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'invest@example.com' })).toHaveAttribute(
      'href',
      'mailto:invest@example.com',
    );
    expect(within(footer).getByRole('link', { name: '+1 (555) 010-2030' })).toHaveAttribute('href', 'tel:+15550102030');
    expect(within(footer).getByText(new RegExp(`© ${new Date().getFullYear()} Terrafund`))).toBeInTheDocument();
  });

  it("shows the server's default contact details until the server has named its own", () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'support@terrafund.example' })).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: '+1 (201) 555-0134' })).toHaveAttribute('href', 'tel:+12015550134');
  });

  it('opens the privacy policy in a modal that Escape closes, returning focus to its opener', async () => {
    const { user } = renderLandingPage();
    const opener = screen.getByRole('button', { name: 'Privacy Policy' });

    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Privacy Policy' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(document.body.style.overflow).toBe('hidden');
    expect(within(dialog).getByText(/access the personal information/i)).toBeInTheDocument();
    expect(within(dialog).getByText(/correct information/i)).toBeInTheDocument();
    expect(within(dialog).getByText(/delete your information/i)).toBeInTheDocument();
    expect(within(dialog).getByText(/opt out of marketing/i)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'invest@example.com' })).toBeInTheDocument();

    await user.keyboard('{Escape}');

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });

  it('says in the privacy policy what the product does: export, correction, closing with what is kept and for how long, mail choices', async () => {
    const { user } = renderLandingPage();
    await user.click(screen.getByRole('button', { name: 'Privacy Policy' }));
    const dialog = screen.getByRole('dialog', { name: 'Privacy Policy' });
    expect(dialog).toHaveTextContent('Profile → Privacy → Download my data');
    expect(dialog).toHaveTextContent('its download works for 7 days');
    expect(dialog).toHaveTextContent('Profile → Privacy → Close my account');
    expect(dialog).toHaveTextContent('with your postal address and date of birth, for 5 years after closing');
    expect(dialog).toHaveTextContent('ledger and transaction records');
    expect(dialog).toHaveTextContent('Profile → Notifications');
    expect(dialog).toHaveTextContent('one-click unsubscribe');
  });

  it('opens the terms in a modal with its eight sections, closed by its close button', async () => {
    const { user } = renderLandingPage();
    const opener = screen.getByRole('button', { name: 'Terms and Conditions' });

    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Terms and Conditions' });
    const headings = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual([
      '1. Acceptance of Terms',
      '2. Account Registration',
      '3. Use of Services',
      '4. Intellectual Property',
      '5. Disclaimer of Warranties',
      '6. Limitation of Liability',
      '7. Governing Law',
      '8. Termination',
    ]);
    const governingLaw = within(dialog).getByRole('heading', { name: '7. Governing Law' }).closest('section');
    expect(governingLaw).toHaveTextContent(/laws of the State of New Jersey/);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('keeps Tab inside an open modal', async () => {
    const { user } = renderLandingPage();
    await user.click(screen.getByRole('button', { name: 'Terms and Conditions' }));
    const dialog = screen.getByRole('dialog');

    for (let step = 0; step < 4; step += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  });

  it('collapses the section buttons into a menu that scrolls and closes', async () => {
    const { user } = renderLandingPage();
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Close menu');
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(menu).not.toBeNull();

    await user.click(within(menu!).getByRole('button', { name: 'About' }));
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});
