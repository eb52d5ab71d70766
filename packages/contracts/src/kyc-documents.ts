// The KYC documents and their names, without schemas (the schemas are in kyc.ts).

export const KYC_DOCUMENT_TYPES = ['idFront', 'idBack', 'proofOfAddress'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number];
export const KYC_DOCUMENT_LABELS: Record<KycDocumentType, string> = {
  idFront: 'ID front',
  idBack: 'ID back',
  proofOfAddress: 'Proof of address',
};
