import type { UseFormReturn } from 'react-hook-form';
import { COUNTRY_OPTIONS, ID_TYPES, KYC_MIN_AGE_YEARS } from '@terrafund/contracts';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NameFields } from '@/components/ui/name-fields';
import type { KycFormValues } from '../utils/kyc-form';
import { Select } from '@/components/ui/select';
import { useT } from '@/lib/i18n';

type StepProps = { form: UseFormReturn<KycFormValues> };

/** The countries in the screen's language (the contracts' labels are the English ones). */
function useCountryOptions() {
  const { t } = useT('kyc');
  return COUNTRY_OPTIONS.map(({ value, label }) => ({ value, label: t(`countries.${value}`, { defaultValue: label }) }));
}

/** The latest birth date that is old enough today, for the date picker's upper bound. */
function latestBirthDate(today = new Date()) {
  const limit = new Date(Date.UTC(today.getUTCFullYear() - KYC_MIN_AGE_YEARS, today.getUTCMonth(), today.getUTCDate()));
  return limit.toISOString().slice(0, 10);
}

export function PersonalStep({ form: { register, formState } }: StepProps) {
  const { errors } = formState;
  const { t, say } = useT('kyc');
  const countryOptions = useCountryOptions();
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <NameFields register={register} errors={errors} />
      <FormField
        label={t('fields.dateOfBirth')}
        error={errors.dateOfBirth?.message && say(errors.dateOfBirth.message)}
        hint={t('fields.dateOfBirthHint', { age: KYC_MIN_AGE_YEARS })}
      >
        {(control) => <Input {...control} {...register('dateOfBirth')} type="date" min="1900-01-01" max={latestBirthDate()} autoComplete="bday" />}
      </FormField>
      <FormField label={t('fields.nationality')} error={errors.nationality?.message && say(errors.nationality.message)}>
        {(control) => <Select {...control} {...register('nationality')} options={countryOptions} placeholder={t('fields.nationalityPlaceholder')} />}
      </FormField>
    </div>
  );
}

export function AddressStep({ form: { register, formState } }: StepProps) {
  const { errors } = formState;
  const { t, say } = useT('kyc');
  const countryOptions = useCountryOptions();
  const optional = <span className="text-xs font-normal text-slate-400 dark:text-slate-500">{t('fields.optional')}</span>;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <FormField label={t('fields.address')} error={errors.address?.message && say(errors.address.message)}>
          {(control) => <Input {...control} {...register('address')} autoComplete="street-address" placeholder={t('fields.addressPlaceholder')} />}
        </FormField>
      </div>
      <FormField label={t('fields.city')} error={errors.city?.message && say(errors.city.message)}>
        {(control) => <Input {...control} {...register('city')} autoComplete="address-level2" />}
      </FormField>
      <FormField label={t('fields.state')} labelAside={optional} error={errors.state?.message && say(errors.state.message)}>
        {(control) => <Input {...control} {...register('state')} autoComplete="address-level1" />}
      </FormField>
      <FormField label={t('fields.postalCode')} error={errors.postalCode?.message && say(errors.postalCode.message)}>
        {(control) => <Input {...control} {...register('postalCode')} autoComplete="postal-code" />}
      </FormField>
      <FormField label={t('fields.country')} error={errors.country?.message && say(errors.country.message)}>
        {(control) => <Select {...control} {...register('country')} autoComplete="country" options={countryOptions} placeholder={t('fields.countryPlaceholder')} />}
      </FormField>
    </div>
  );
}

export function IdentityStep({ form: { register, formState } }: StepProps) {
  const { errors } = formState;
  const { t, say } = useT('kyc');
  const idTypeOptions = ID_TYPES.map((value) => ({ value, label: t(`idTypes.${value}`) }));
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <FormField label={t('fields.idType')} error={errors.idType?.message && say(errors.idType.message)}>
        {(control) => <Select {...control} {...register('idType')} options={idTypeOptions} />}
      </FormField>
      <FormField label={t('fields.idNumber')} error={errors.idNumber?.message && say(errors.idNumber.message)} hint={t('fields.idNumberHint')}>
        {(control) => <Input {...control} {...register('idNumber')} autoComplete="off" spellCheck={false} />}
      </FormField>
    </div>
  );
}
