import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

// Whole journeys through four steps take a while in jsdom, more so on a busy machine.
const slow = { timeout: 30_000 };
import { KYC_MAX_FILE_BYTES, type KycDocumentType, type UserWithKyc } from '@terrafund/contracts';
import { buildKyc, buildUser } from '@/testing/builders';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';

const ID_FRONT = '/api/kyc/documents/idFront/8d2a6a8e-3c1b-4e0f-9a51-2b7c9d0e1f20';
const ID_BACK = '/api/kyc/documents/idBack/5c1f7e2a-9b3d-4c6e-8a0f-1e2d3c4b5a69';
const PROOF = '/api/kyc/documents/proofOfAddress/0b9e2c4d-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
const FILE_URLS: Record<KycDocumentType, string> = { idFront: ID_FRONT, idBack: ID_BACK, proofOfAddress: PROOF };
const LABELS: Record<KycDocumentType, string> = { idFront: 'ID front', idBack: 'ID back', proofOfAddress: 'Proof of address' };
/** Which document the next upload is, as the server would answer it (the mock cannot read the multipart body). */
let nextUpload: KycDocumentType = 'idFront';

const png = (name = 'id.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
const pdf = (name = 'bill.pdf') => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

/** The upload and signed-link endpoints, answering as the server does. */
const documentHandlers = {
  'POST /kyc/upload-document': () => ({ status: 201, body: { fileUrl: FILE_URLS[nextUpload], documentType: nextUpload } }),
  ...Object.fromEntries(
    (Object.keys(FILE_URLS) as KycDocumentType[]).map((type) => [
      `GET ${FILE_URLS[type].replace(/^\/api/, '')}/link`,
      () => ({
        body: {
          url: `${FILE_URLS[type]}?expires=1&signature=abc`,
          expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
          contentType: type === 'proofOfAddress' ? 'application/pdf' : 'image/png',
          documentType: type,
        },
      }),
    ]),
  ),
};

async function openKyc(handlers: Parameters<typeof signIn>[1] = {}, member = buildUser()) {
  nextUpload = 'idFront';
  const fetchMock = signIn(member, { ...documentHandlers, ...handlers });
  const app = renderApp('/kyc');
  await screen.findByRole('heading', { name: 'Personal Information', level: 2 }, { timeout: 5000 });
  return { ...app, fetchMock };
}

type App = Awaited<ReturnType<typeof openKyc>>;

const next = () => screen.getByRole('button', { name: 'Next' });
const stepButton = (name: string) => within(screen.getByRole('navigation', { name: 'Verification steps' })).getByRole('button', { name: new RegExp(name) });
const currentHeading = () => screen.getByRole('heading', { level: 2 });

async function fillPersonal({ user }: App) {
  await user.type(screen.getByLabelText('Date of birth'), '1990-04-12');
  await user.selectOptions(screen.getByLabelText('Nationality'), 'UK');
}

/** Puts text into a field in one go, as pasting would: typing each key is slow in jsdom. */
async function fill({ user }: App, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

async function fillAddress(app: App) {
  await fill(app, 'Street address', ' 12 Baker Street ');
  await fill(app, 'City', 'London');
  await fill(app, 'Postal code', 'NW1 6XE');
  await app.user.selectOptions(screen.getByLabelText('Country'), 'UK');
}

async function fillIdentity(app: App) {
  await app.user.selectOptions(screen.getByLabelText('ID type'), 'national_id');
  await fill(app, 'ID number', 'AB123456');
}

/** Fills the first three steps and arrives at the documents. */
async function reachDocuments(app: App) {
  await fillPersonal(app);
  await app.user.click(next());
  await fillAddress(app);
  await app.user.click(next());
  await fillIdentity(app);
  await app.user.click(next());
  await screen.findByRole('heading', { name: 'Additional Documents', level: 2 });
}

async function uploadDocument({ user }: App, type: KycDocumentType) {
  nextUpload = type;
  await user.upload(screen.getByLabelText(new RegExp(`Choose file for ${LABELS[type]}`)), type === 'proofOfAddress' ? pdf() : png());
  if (type === 'proofOfAddress') await screen.findByRole('link', { name: /Open proof of address \(PDF\)/ });
  else await screen.findByRole('img', { name: `${LABELS[type]} preview` });
}
const uploadIdFront = (app: App) => uploadDocument(app, 'idFront');
/** What the national ID chosen in fillIdentity needs: front, back and proof of address. */
async function uploadAll(app: App) {
  for (const type of ['idFront', 'idBack', 'proofOfAddress'] as const) await uploadDocument(app, type);
}
/** The upload slots on screen, by their labels. */
const slots = () =>
  Object.values(LABELS)
    .filter((label) => within(screen.getByRole('group', { name: 'Documents' })).queryByLabelText(new RegExp(`Choose file for ${label}`)))
    .map((label) => `Choose file for ${label}`);

describe('KYC wizard', slow, () => {
  it('starts on Personal Information with the name filled in, and will not move on until the step is complete', async () => {
    const app = await openKyc();

    expect(stepButton('Personal Information')).toHaveAttribute('aria-current', 'step');
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Last name')).toHaveValue('Lovelace');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await app.user.clear(screen.getByLabelText('First name'));
    await app.user.click(next());

    await expectToast('Please fill all required fields');
    expect(screen.getByLabelText('First name')).toHaveAccessibleDescription('Please fill all required fields');
    expect(screen.getByLabelText('Date of birth')).toHaveAccessibleDescription('Please fill all required fields');
    expect(screen.getByLabelText('Nationality')).toHaveAccessibleDescription('Please fill all required fields');
    expect(screen.getByLabelText('Nationality')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Last name')).not.toHaveAttribute('aria-invalid');
    expect(currentHeading()).toHaveTextContent('Personal Information');

    // The message goes as soon as the field is answered.
    await app.user.type(screen.getByLabelText('First name'), 'Ada');
    await waitFor(() => expect(screen.getByLabelText('First name')).not.toHaveAttribute('aria-invalid'));
  });

  it('says why a date of birth is refused', async () => {
    const app = await openKyc();
    const lastYear = new Date().getUTCFullYear() - 1;

    await app.user.type(screen.getByLabelText('Date of birth'), `${lastYear}-01-01`);
    await app.user.selectOptions(screen.getByLabelText('Nationality'), 'US');
    await app.user.click(next());

    await expectToast('You must be at least 18 years old');
    expect(screen.getByLabelText('Date of birth')).toHaveAccessibleDescription('You must be at least 18 years old');
  });

  it('checks each step with its own rules: the address step needs everything but the state', async () => {
    const app = await openKyc();
    await fillPersonal(app);
    await app.user.click(next());

    expect(await screen.findByRole('heading', { name: 'Address Verification', level: 2 })).toHaveFocus();
    expect(stepButton('Address Verification')).toHaveAttribute('aria-current', 'step');
    expect(stepButton('Personal Information')).toHaveAccessibleName('Personal Information, completed');

    await app.user.click(next());
    await expectToast('Please fill all required fields');
    for (const label of ['Street address', 'City', 'Postal code', 'Country']) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription('Please fill all required fields');
    }
    expect(screen.getByLabelText('State / Province')).not.toHaveAttribute('aria-invalid');
  });

  it('jumps between steps with the step icons and back with Previous, keeping what was typed', async () => {
    const app = await openKyc();

    await app.user.click(stepButton('Identity Verification'));
    expect(currentHeading()).toHaveTextContent('Identity Verification');
    expect(stepButton('Identity Verification')).toHaveAttribute('aria-current', 'step');
    expect(stepButton('Personal Information')).not.toHaveAttribute('aria-current');
    // Passport is the default ID type; the others carry their labels.
    expect(screen.getByLabelText('ID type')).toHaveValue('passport');
    expect(within(screen.getByLabelText('ID type')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Passport',
      "Driver's license",
      'National ID',
    ]);
    await app.user.type(screen.getByLabelText('ID number'), 'X1');

    await app.user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(currentHeading()).toHaveTextContent('Address Verification');

    await app.user.click(stepButton('Additional Documents'));
    expect(screen.getByRole('button', { name: 'Submit Verification' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();

    await app.user.click(stepButton('Identity Verification'));
    expect(screen.getByLabelText('ID number')).toHaveValue('X1');
  });

  it('on submit returns to the first incomplete step, even one that was skipped', async () => {
    const app = await openKyc();
    await app.user.click(stepButton('Additional Documents'));
    // What a passport (the default) needs.
    await uploadIdFront(app);
    await uploadDocument(app, 'proofOfAddress');
    await app.user.click(screen.getByRole('checkbox'));
    await app.user.click(screen.getByRole('button', { name: 'Submit Verification' }));

    await waitFor(() => expect(currentHeading()).toHaveTextContent('Personal Information'));
    expect(screen.getByLabelText('Date of birth')).toHaveAccessibleDescription('Please fill all required fields');
    await expectToast('Please fill all required fields');
    expect(callsTo(app.fetchMock, 'POST', '/kyc/submit')).toHaveLength(0);
  });

  it('needs every document the ID type needs and the confirmation before submitting', async () => {
    const app = await openKyc();
    await reachDocuments(app);

    await app.user.click(screen.getByRole('button', { name: 'Submit Verification' }));
    await expectToast('Please fill all required fields');
    expect(screen.getByRole('group', { name: 'Documents' })).toHaveAccessibleDescription('Please upload at least one document');
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription('Please confirm that the information you provided is accurate');

    // A national ID needs its back and a proof of address too: the front alone is refused, saying what is missing.
    await uploadIdFront(app);
    await app.user.click(screen.getByRole('checkbox'));
    await app.user.click(screen.getByRole('button', { name: 'Submit Verification' }));
    const missing = 'Please upload your ID back and proof of address to submit your verification';
    await expectToast(missing);
    expect(screen.getByRole('group', { name: 'Documents' })).toHaveAccessibleDescription(missing);

    await uploadDocument(app, 'idBack');
    await app.user.click(screen.getByRole('button', { name: 'Submit Verification' }));
    await expectToast('Please upload your proof of address to submit your verification');
    expect(callsTo(app.fetchMock, 'POST', '/kyc/submit')).toHaveLength(0);

    await uploadDocument(app, 'proofOfAddress');
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Documents' })).not.toHaveAccessibleDescription());
  });

  it('asks for exactly the documents of the chosen ID type', async () => {
    const app = await openKyc();
    // Passport, the default: its front and a proof of address.
    await app.user.click(stepButton('Additional Documents'));
    expect(slots()).toEqual(['Choose file for ID front', 'Choose file for Proof of address']);

    for (const [idType, expected] of [
      ['national_id', ['Choose file for ID front', 'Choose file for ID back', 'Choose file for Proof of address']],
      ['driver_license', ['Choose file for ID front', 'Choose file for ID back', 'Choose file for Proof of address']],
      ['passport', ['Choose file for ID front', 'Choose file for Proof of address']],
    ] as const) {
      await app.user.click(stepButton('Identity Verification'));
      await app.user.selectOptions(screen.getByLabelText('ID type'), idType);
      await app.user.click(stepButton('Additional Documents'));
      expect(slots(), idType).toEqual(expected);
    }
  });
});

describe('KYC document upload', slow, () => {
  it('sends documentType, then the file, as multipart form data, and previews the upload through a signed link', async () => {
    const app = await openKyc();
    await app.user.click(stepButton('Additional Documents'));

    const file = png('passport.png');
    await app.user.upload(screen.getByLabelText(/Choose file for ID front/), file);

    await expectToast('File uploaded successfully');
    const uploads = app.fetchMock.mock.calls.filter(([input]) => String(input) === '/api/kyc/upload-document');
    expect(uploads).toHaveLength(1);
    const init = uploads[0]![1]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBeInstanceOf(FormData);
    expect([...(init.body as FormData).entries()]).toEqual([
      ['documentType', 'idFront'],
      ['file', expect.objectContaining({ name: 'passport.png', type: 'image/png' })],
    ]);
    const headers = new Headers(init.headers);
    // The browser writes the multipart boundary itself; a JSON content type here would break the upload.
    expect(headers.get('Content-Type')).toBeNull();
    expect(headers.get('Authorization')).toBe('Bearer test-token');

    const preview = await screen.findByRole('img', { name: 'ID front preview' });
    expect(preview).toHaveAttribute('src', '/api/kyc/documents/idFront/8d2a6a8e-3c1b-4e0f-9a51-2b7c9d0e1f20?expires=1&signature=abc');
    expect(screen.getByLabelText(/Replace file for ID front/)).toBeInTheDocument();
  });

  it('shows "Uploading file..." while the file travels', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const app = await openKyc({ 'POST /kyc/upload-document': () => new Promise((resolve) => (answer = resolve)) });
    await app.user.click(stepButton('Additional Documents'));

    await app.user.upload(screen.getByLabelText(/Choose file for ID front/), png());
    await expectToast('Uploading file...');
    expect(screen.getByLabelText(/Uploading… for ID front/)).toBeDisabled();

    answer({ status: 201, body: { fileUrl: ID_FRONT, documentType: 'idFront' } });
    await expectToast('File uploaded successfully');
  });

  it('refuses a file over 5MB in the browser, without uploading it', async () => {
    const app = await openKyc();
    await app.user.click(stepButton('Additional Documents'));

    const big = new File([new Uint8Array(KYC_MAX_FILE_BYTES + 1)], 'scan.png', { type: 'image/png' });
    await app.user.upload(screen.getByLabelText(/Choose file for ID front/), big);

    await expectToast('File size must be less than 5MB');
    expect(screen.getByLabelText(/Choose file for ID front/)).toHaveAccessibleDescription(/File size must be less than 5MB/);
    expect(callsTo(app.fetchMock, 'POST', '/kyc/upload-document')).toHaveLength(0);
  });

  it('refuses a wrong file type in the browser; a PDF only as proof of address', async () => {
    const app = await openKyc();
    // The picker's own filter can be switched off by the user ("All files"), so the check must hold without it.
    const picker = userEvent.setup({ applyAccept: false });
    await app.user.click(stepButton('Additional Documents'));

    await picker.upload(screen.getByLabelText(/Choose file for ID front/), pdf());
    await expectToast('Invalid file type. Please upload a valid image file');
    expect(screen.getByLabelText(/Choose file for ID front/)).toHaveAccessibleDescription(/Invalid file type/);

    await picker.upload(screen.getByLabelText(/Choose file for ID front/), new File(['GIF89a'], 'a.gif', { type: 'image/gif' }));
    expect(callsTo(app.fetchMock, 'POST', '/kyc/upload-document')).toHaveLength(0);

    expect(screen.getByLabelText(/Choose file for Proof of address/)).toHaveAttribute('accept', 'image/jpeg,image/png,application/pdf');
    await picker.upload(screen.getByLabelText(/Choose file for Proof of address/), pdf());
    await waitFor(() => expect(callsTo(app.fetchMock, 'POST', '/kyc/upload-document')).toHaveLength(1));
  });

  it("toasts the server's refusal, or the spec's fallback when it gives no reason", async () => {
    let reply = { status: 415, body: { message: 'Invalid file type. Please upload a valid image file', code: 'UNSUPPORTED_MEDIA_TYPE' } as unknown };
    const app = await openKyc({ 'POST /kyc/upload-document': () => reply });
    await app.user.click(stepButton('Additional Documents'));

    await app.user.upload(screen.getByLabelText(/Choose file for ID front/), png());
    await expectToast('Invalid file type. Please upload a valid image file');

    reply = { status: 500, body: undefined };
    await app.user.upload(screen.getByLabelText(/Choose file for ID front/), png());
    await expectToast('Failed to upload file. Please try again.');
    expect(screen.queryByRole('img', { name: 'ID front preview' })).not.toBeInTheDocument();
  });

  it('opens a PDF through its signed link in a new tab', async () => {
    const app = await openKyc({
      'POST /kyc/upload-document': () => ({ status: 201, body: { fileUrl: PROOF, documentType: 'proofOfAddress' } }),
      'GET /kyc/documents/proofOfAddress/0b9e2c4d-6f7a-4b8c-9d0e-1f2a3b4c5d6e/link': () => ({
        body: { url: '/api/signed/bill', expiresAt: new Date(Date.now() + 300_000).toISOString(), contentType: 'application/pdf', documentType: 'proofOfAddress' },
      }),
    });
    await app.user.click(stepButton('Additional Documents'));
    await app.user.upload(screen.getByLabelText(/Choose file for Proof of address/), pdf());

    const link = await screen.findByRole('link', { name: /Open proof of address \(PDF\)/ });
    expect(link).toHaveAttribute('href', '/api/signed/bill');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });
});

describe('KYC submission', slow, () => {
  it('sends every answer trimmed, the fileUrls and confirmed: true; shows the pending screen and refreshes the user', async () => {
    let profile: UserWithKyc = { ...buildUser(), kyc: null };
    const app = await openKyc({
      'GET /users/profile': () => ({ body: profile }),
      'POST /kyc/submit': () => {
        profile = {
          ...profile,
          kycStatus: 'pending',
          kyc: buildKyc({
            idType: 'national_id',
            idNumber: 'AB123456',
            documents: [ID_FRONT, ID_BACK, PROOF],
            kycSubmittedAt: '2026-03-02T09:00:00.000Z',
          }),
        };
        return { body: profile };
      },
    });
    await reachDocuments(app);
    await uploadAll(app);
    await app.user.click(screen.getByRole('checkbox'));
    await app.user.click(screen.getByRole('button', { name: 'Submit Verification' }));

    expect(await screen.findByRole('heading', { name: 'Verification in Progress' })).toBeInTheDocument();
    await expectToast('Your KYC application has been submitted for review.');
    expect(callsTo(app.fetchMock, 'POST', '/kyc/submit')).toEqual([
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1990-04-12',
        nationality: 'UK',
        address: '12 Baker Street',
        city: 'London',
        state: '',
        postalCode: 'NW1 6XE',
        country: 'UK',
        idType: 'national_id',
        idNumber: 'AB123456',
        documents: [ID_FRONT, ID_BACK, PROOF],
        confirmed: true,
      },
    ]);
    await waitFor(() => expect(callsTo(app.fetchMock, 'GET', '/users/profile').length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByRole('button', { name: 'Submit Verification' })).not.toBeInTheDocument();
  });

  it('shows pending at once, and on a refusal goes back to the form as it was, with the reason', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const app = await openKyc({
      'POST /kyc/submit': () => new Promise((resolve) => (answer = resolve)),
    });
    await reachDocuments(app);
    await uploadAll(app);
    await app.user.click(screen.getByRole('checkbox'));
    await app.user.click(screen.getByRole('button', { name: 'Submit Verification' }));

    // Optimistic: pending before the server has answered (docs/product.md §4.1 Statuses).
    expect(await screen.findByRole('heading', { name: 'Verification in Progress' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Verification' })).not.toBeInTheDocument();

    answer({ status: 500, body: {} });

    expect(await screen.findByRole('button', { name: 'Submit Verification' })).toBeInTheDocument();
    await expectToast('Failed to submit KYC. Please try again.');
    expect(screen.queryByRole('heading', { name: 'Verification in Progress' })).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'ID front preview' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox')).toBeChecked();
    await app.user.click(stepButton('Address Verification'));
    expect(screen.getByLabelText('City')).toHaveValue('London');
  });

  it("puts the server's field messages under their fields, on their step", async () => {
    const app = await openKyc({
      'POST /kyc/submit': () => ({
        status: 400,
        body: { message: 'Please fill all required fields', code: 'VALIDATION_ERROR', fields: { postalCode: 'Please fill all required fields' } },
      }),
    });
    await reachDocuments(app);
    await uploadAll(app);
    await app.user.click(screen.getByRole('checkbox'));
    await app.user.click(screen.getByRole('button', { name: 'Submit Verification' }));

    await expectToast('Please fill all required fields');
    await waitFor(() => expect(currentHeading()).toHaveTextContent('Address Verification'));
    expect(screen.getByLabelText('Postal code')).toHaveAccessibleDescription('Please fill all required fields');
  });
});
