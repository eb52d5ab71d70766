import { describe, expect, it } from 'vitest';
import { initialKycValues, LAST_STEP, toSubmitBody, validateStep, type KycFormValues } from './kyc-form';

const FRONT = { url: '/api/kyc/documents/idFront/8d2a6a8e-3c1b-4e0f-9a51-2b7c9d0e1f20', type: 'idFront' } as const;
const BACK = { url: '/api/kyc/documents/idBack/5c1f7e2a-9b3d-4c6e-8a0f-1e2d3c4b5a69', type: 'idBack' } as const;
const PROOF = { url: '/api/kyc/documents/proofOfAddress/0b9e2c4d-6f7a-4b8c-9d0e-1f2a3b4c5d6e', type: 'proofOfAddress' } as const;

const values = (change: Partial<KycFormValues>): KycFormValues => ({
  ...initialKycValues({ firstName: 'Ada', lastName: 'Lovelace' }, null),
  dateOfBirth: '1990-04-12',
  nationality: 'UK',
  address: '12 Baker Street',
  city: 'London',
  postalCode: 'NW1 6XE',
  country: 'UK',
  idNumber: 'AB123456',
  confirmed: true,
  ...change,
});

describe('the documents step', () => {
  it('needs what the ID type needs, naming what is missing', () => {
    expect(validateStep(LAST_STEP, values({ idType: 'passport', documents: [FRONT] })).documents?.message).toBe(
      'Please upload your proof of address to submit your verification',
    );
    expect(validateStep(LAST_STEP, values({ idType: 'driver_license', documents: [PROOF, FRONT] })).documents?.message).toBe(
      'Please upload your ID back to submit your verification',
    );
    expect(validateStep(LAST_STEP, values({ idType: 'passport', documents: [PROOF, FRONT] }))).toEqual({});
    expect(validateStep(LAST_STEP, values({ idType: 'national_id', documents: [BACK, PROOF, FRONT] }))).toEqual({});
  });

  it('submits exactly the documents the ID type needs, in order', () => {
    // An ID back uploaded before the member switched to a passport is left out.
    expect(toSubmitBody(values({ idType: 'passport', documents: [BACK, PROOF, FRONT] })).documents).toEqual([FRONT.url, PROOF.url]);
    expect(toSubmitBody(values({ idType: 'national_id', documents: [PROOF, BACK, FRONT] })).documents).toEqual([FRONT.url, BACK.url, PROOF.url]);
  });
});
