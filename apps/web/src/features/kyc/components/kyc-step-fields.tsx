import type { UseFormReturn } from 'react-hook-form';
import { COUNTRY_OPTIONS, ID_TYPE_LABELS, ID_TYPES, KYC_MIN_AGE_YEARS } from '@terrafund/contracts';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NameFields } from '@/components/ui/name-fields';
import type { KycFormValues } from '../utils/kyc-form';
import { Select } from '@/components/ui/select';

type StepProps = { form: UseFormReturn<KycFormValues> };

const optional = <span className="text-xs font-normal text-slate-400 dark:text-slate-500">Optional</span>;
const countryOptions = COUNTRY_OPTIONS.map(({ value, label }) => ({ value, label }));
const idTypeOptions = ID_TYPES.map((value) => ({ value, label: ID_TYPE_LABELS[value] }));

/** The latest birth date that is old enough today, for the date picker's upper bound. */
function latestBirthDate(today = new Date()) {
  const limit = new Date(Date.UTC(today.getUTCFullYear() - KYC_MIN_AGE_YEARS, today.getUTCMonth(), today.getUTCDate()));
  return limit.toISOString().slice(0, 10);
}

export function PersonalStep({ form: { register, formState } }: StepProps) {
  const { errors } = formState;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <NameFields register={register} errors={errors} />
      <FormField label="Date of birth" error={errors.dateOfBirth?.message} hint={`You must be at least ${KYC_MIN_AGE_YEARS}.`}>
        {(control) => <Input {...control} {...register('dateOfBirth')} type="date" min="1900-01-01" max={latestBirthDate()} autoComplete="bday" />}
      </FormField>
      <FormField label="Nationality" error={errors.nationality?.message}>
        {(control) => <Select {...control} {...register('nationality')} options={countryOptions} placeholder="Select your nationality" />}
      </FormField>
    </div>
  );
}

export function AddressStep({ form: { register, formState } }: StepProps) {
  const { errors } = formState;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <FormField label="Street address" error={errors.address?.message}>
          {(control) => <Input {...control} {...register('address')} autoComplete="street-address" placeholder="123 Main Street, Apt 4" />}
        </FormField>
      </div>
      <FormField label="City" error={errors.city?.message}>
        {(control) => <Input {...control} {...register('city')} autoComplete="address-level2" />}
      </FormField>
      <FormField label="State / Province" labelAside={optional} error={errors.state?.message}>
        {(control) => <Input {...control} {...register('state')} autoComplete="address-level1" />}
      </FormField>
      <FormField label="Postal code" error={errors.postalCode?.message}>
        {(control) => <Input {...control} {...register('postalCode')} autoComplete="postal-code" />}
      </FormField>
      <FormField label="Country" error={errors.country?.message}>
        {(control) => <Select {...control} {...register('country')} autoComplete="country" options={countryOptions} placeholder="Select your country" />}
      </FormField>
    </div>
  );
}

export function IdentityStep({ form: { register, formState } }: StepProps) {
  const { errors } = formState;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <FormField label="ID type" error={errors.idType?.message}>
        {(control) => <Select {...control} {...register('idType')} options={idTypeOptions} />}
      </FormField>
      <FormField label="ID number" error={errors.idNumber?.message} hint="As printed on the document.">
        {(control) => <Input {...control} {...register('idNumber')} autoComplete="off" spellCheck={false} />}
      </FormField>
    </div>
  );
}
