/** A complete, valid KYC submission with the given documents; `overrides` replace any field. */
export const kycBody = (documents: unknown[], overrides: Record<string, unknown> = {}) => ({
  firstName: 'Jane',
  lastName: 'Doe',
  dateOfBirth: '1990-04-12',
  nationality: 'FR',
  address: '12 Rue de la Paix',
  city: 'Paris',
  state: '',
  postalCode: '75002',
  country: 'FR',
  idType: 'passport',
  idNumber: 'X1234567',
  documents,
  confirmed: true,
  ...overrides,
});
