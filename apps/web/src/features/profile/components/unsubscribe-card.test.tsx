import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, mockApi, renderApp, signIn } from '@/testing/test-utils';

const heading = (name: string) => screen.findByRole('heading', { level: 1, name }, { timeout: 8000 });

describe('/unsubscribe', { timeout: 20_000 }, () => {
  it('explains, changes nothing until the button is pressed, then says what was turned off, without signing in', async () => {
    const answer = { kind: 'projects', message: messages.privacy.unsubscribed('New projects') };
    const fetchMock = mockApi({ 'POST /unsubscribe': () => ({ body: answer }) });
    const token = `5f0c6d1e-8a57-4b6a-9d4e-0f1a2b3c4d5e.projects.${'ab'.repeat(32)}`;
    const { user } = renderApp(`/unsubscribe?token=${token}`);

    expect(await heading('Unsubscribe from these e-mails')).toBeInTheDocument();
    // The link names its kind: the page says which e-mails stop before anything is pressed.
    expect(screen.getByText('New projects', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByText(/Security e-mails .* are always sent/)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/unsubscribe')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Unsubscribe from New projects' }));
    expect(await heading('You are unsubscribed')).toBeInTheDocument();
    expect(screen.getByText(answer.message)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/unsubscribe')).toEqual([{ token }]);
    expect(screen.getByRole('link', { name: 'Back to Terrafund' })).toHaveAttribute('href', '/');
  });

  it('says a refused link is invalid, in the server\'s words', async () => {
    mockApi({ 'POST /unsubscribe': () => ({ status: 400, body: { message: messages.privacy.unsubscribeInvalid, code: 'VALIDATION_ERROR' } }) });
    const { user } = renderApp('/unsubscribe?token=tampered');
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }, { timeout: 8000 }));
    expect(await heading('Invalid unsubscribe link')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(messages.privacy.unsubscribeInvalid);
  });

  it('without a token, says the link is incomplete and asks nothing', async () => {
    const fetchMock = mockApi({});
    renderApp('/unsubscribe');
    expect(await heading('Invalid unsubscribe link')).toBeInTheDocument();
    expect(screen.getByText(messages.privacy.unsubscribeInvalid)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('links a signed-in member to all their e-mail preferences', async () => {
    signIn(buildUser(), { 'POST /unsubscribe': () => ({ body: { kind: 'dividends', message: messages.privacy.unsubscribed('Dividends paid') } }) });
    const { user } = renderApp('/unsubscribe?token=t');
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }, { timeout: 8000 }));
    await heading('You are unsubscribed');
    expect(await screen.findByRole('link', { name: 'All your e-mail preferences' })).toHaveAttribute('href', '/profile#notifications');
  });
});
