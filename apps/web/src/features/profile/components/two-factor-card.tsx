import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import toast from 'react-hot-toast';
import { messages, type TwoFactorSetup, type User } from '@terrafund/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { ShieldCheckIcon } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { useSetupTwoFactor } from '../api/setup-two-factor';
import { SectionHeader } from './section-header';

/** The otpauth:// address as a QR code (an SVG, so nothing needs a canvas), for the authenticator app to scan. */
function QrCode({ value }: { value: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    void QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [value]);
  return (
    <div className="flex h-44 w-44 items-center justify-center rounded-lg border border-slate-200 bg-white p-2 dark:border-slate-700">
      {src && <img src={src} alt="QR code for your authenticator app" className="h-full w-full" />}
    </div>
  );
}

/** The ten recovery codes, shown once: Copy and Download, then done. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Terrafund recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Recovery codes copied');
    } catch {
      toast.error('Copying is not available here: select the codes and copy them by hand.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'terrafund-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Save your recovery codes">
        Each code signs you in once if you lose your phone. They are shown only now.
      </Alert>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm dark:bg-slate-800/60">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          Download
        </Button>
        <Button size="sm" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

/** A two-factor flow's buttons: its submit (`submit`, in `variant`) and Cancel. */
function FlowButtons({ submit, variant, isLoading, onCancel }: { submit: string; variant?: 'danger'; isLoading: boolean; onCancel: () => void }) {
  return (
    <div className="flex gap-2">
      <Button type="submit" variant={variant} isLoading={isLoading}>
        {submit}
      </Button>
      <Button type="button" variant="outline" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

function EnableFlow({ onCancel, onEnabled }: { onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const setup = useSetupTwoFactor();
  const enable = useEnableTwoFactor();
  const [secret, setSecret] = useState<TwoFactorSetup>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const { mutate: startSetup } = setup;

  useEffect(() => {
    startSetup(undefined, { onSuccess: setSecret });
  }, [startSetup]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setError(messages.twoFactor.codeRequired);
      return;
    }
    setError(undefined);
    enable.mutate(
      { code: typed },
      {
        onSuccess: (answer) => {
          toast.success(messages.twoFactor.enabled);
          onEnabled(answer.recoveryCodes);
        },
        onError: (failure) => setError(errorMessage(failure, messages.twoFactor.codeInvalid)),
      },
    );
  };

  if (!secret) {
    return <p className="text-sm text-slate-500">{setup.isError ? errorMessage(setup.error, messages.toasts.genericError) : 'Preparing your secret…'}</p>;
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…), or type the secret in it, then enter the 6-digit code it shows.
      </p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <QrCode value={secret.otpauthUrl} />
        <div className="min-w-0">
          <p className="text-xs font-medium text-slate-500 uppercase">Secret</p>
          <p className="font-mono text-sm break-all text-slate-900 dark:text-white" data-testid="two-factor-secret">
            {secret.secret}
          </p>
        </div>
      </div>
      <FormField label="Authentication code" error={error}>
        {(control) => (
          <Input {...control} value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" maxLength={7} placeholder="123456" />
        )}
      </FormField>
      <FlowButtons submit="Turn on" isLoading={enable.isPending} onCancel={onCancel} />
    </form>
  );
}

function DisableFlow({ onCancel, onDisabled }: { onCancel: () => void; onDisabled: () => void }) {
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = { password: password ? undefined : messages.twoFactor.passwordIncorrect, code: code.trim() ? undefined : messages.twoFactor.recoveryOrCodeRequired };
    setErrors(missing);
    if (missing.password || missing.code) return;
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: () => {
          toast.success(messages.twoFactor.disabled);
          onDisabled();
        },
        onError: (failure) => {
          const fields = (failure as { fields?: Record<string, string> }).fields ?? {};
          setErrors({ password: fields.password, code: fields.code });
          if (!fields.password && !fields.code) toast.error(errorMessage(failure, messages.toasts.genericError));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Password" error={errors.password}>
        {(control) => <PasswordInput {...control} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
      </FormField>
      <FormField label="Authentication or recovery code" error={errors.code}>
        {(control) => <Input {...control} value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" />}
      </FormField>
      <FlowButtons submit="Turn off" variant="danger" isLoading={disable.isPending} onCancel={onCancel} />
    </form>
  );
}

/** Profile → Security: two-factor sign-in with an authenticator app (issue 15). */
export function TwoFactorCard({ user }: { user: User }) {
  const [mode, setMode] = useState<'idle' | 'enabling' | 'disabling'>('idle');
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();

  return (
    <Card>
      <SectionHeader title="Two-factor authentication" />
      <div className="space-y-4 px-5 py-5 sm:px-6">
        <div className="flex items-center gap-4">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
            <ShieldCheckIcon className="h-5 w-5" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="text-sm font-medium text-slate-900 dark:text-white">{user.twoFactorEnabled ? 'On' : 'Off'}</p>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              {user.twoFactorEnabled ? 'Signing in asks for a code from your authenticator app.' : 'Add a code from your phone to every sign-in.'}
            </p>
          </div>
        </div>
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />
        ) : mode === 'enabling' ? (
          <EnableFlow
            onCancel={() => setMode('idle')}
            onEnabled={(codes) => {
              setMode('idle');
              setRecoveryCodes(codes);
            }}
          />
        ) : mode === 'disabling' ? (
          <DisableFlow onCancel={() => setMode('idle')} onDisabled={() => setMode('idle')} />
        ) : user.twoFactorEnabled ? (
          <Button variant="outline" size="sm" className="w-full" onClick={() => setMode('disabling')}>
            Disable 2FA
          </Button>
        ) : (
          <Button size="sm" className="w-full" onClick={() => setMode('enabling')}>
            Enable 2FA
          </Button>
        )}
      </div>
    </Card>
  );
}
