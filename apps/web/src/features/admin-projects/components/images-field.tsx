import { useEffect, useId, useRef, useState, type ChangeEvent, type ComponentProps } from 'react';
import { PROJECT_MAX_IMAGES, messages, projectImageSrc } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ChevronLeftIcon, ChevronRightIcon, TrashIcon, UploadIcon } from 'lucide-react';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useUploadProjectAsset } from '../api/upload-project-asset';
import { useT } from '@/lib/i18n';
import { checkImageFile, IMAGE_TYPES } from '../utils/asset-files';

type ImagesFieldProps = {
  value: readonly string[];
  onChange: (images: string[]) => void;
  /** The form's message about the images (too many, not our uploads). */
  error?: string;
};

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

const iconButton = 'h-8 w-8 rounded-md bg-white/90 p-0 text-slate-700 shadow-sm hover:bg-white dark:bg-slate-900/90 dark:text-slate-200 dark:hover:bg-slate-900';

/** One of the buttons over a picture's corner: small, an icon only, named by `label`. */
function PictureButton({ label, className, ...props }: { label: string } & ComponentProps<typeof Button>) {
  return <Button size="sm" variant="ghost" className={cn(iconButton, className)} aria-label={label} {...props} />;
}

/**
 * The project's pictures: several uploaded at once (in the order chosen), previewed, put in order or
 * removed. The first is the cover the catalogue shows.
 */
export function ImagesField({ value, onChange, error }: ImagesFieldProps) {
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();
  const upload = useUploadProjectAsset();
  const { t, say } = useT('admin');
  const [uploading, setUploading] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  // Uploads finish after renders in which the admin may have reordered or removed pictures: each is appended
  // to the list as it is when it arrives.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Cleared so that choosing the same file again after a failure still triggers a change.
    event.target.value = '';
    if (files.length === 0) return;
    setProblem(null);

    const room = PROJECT_MAX_IMAGES - latest.current.length;
    if (files.length > room) {
      setProblem(t('projects.images.tooMany', { message: say(messages.projects.tooMany), max: PROJECT_MAX_IMAGES }));
      return;
    }
    const refusal = files.map(checkImageFile).find(Boolean);
    if (refusal) {
      setProblem(say(refusal));
      return;
    }

    setUploading(files.length);
    // One after the other, so the pictures keep the order they were chosen in.
    for (const file of files) {
      try {
        const asset = await upload.mutateAsync({ kind: 'image', file });
        // Kept here as well: the next upload may finish before the form has rendered this one.
        const next = [...latest.current, asset.url];
        latest.current = next;
        onChange(next);
      } catch (failure) {
        setProblem(say(errorMessage(failure, messages.projects.uploadFailed)));
        setUploading(0);
        return;
      }
      setUploading((n) => n - 1);
    }
  };

  const shown = problem ?? error;
  const full = value.length >= PROJECT_MAX_IMAGES;

  return (
    <div>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={t('projects.images.list')}>
        {value.map((url, i) => (
          <li key={`${url}-${i}`} className="relative overflow-hidden rounded-xl border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-800">
            <img src={projectImageSrc(url, 'thumb')} alt={t('projects.images.picture', { number: i + 1 })} className="aspect-[4/3] w-full object-cover" />
            {i === 0 && (
              <span className="absolute top-2 left-2 rounded-full bg-emerald-600 px-2 py-0.5 text-xs font-semibold text-white shadow-sm">{t('projects.images.cover')}</span>
            )}
            <div className="absolute right-2 bottom-2 flex gap-1">
              <PictureButton label={t('projects.images.earlier', { number: i + 1 })} onClick={() => onChange(move(value, i, i - 1))} disabled={i === 0}>
                <ChevronLeftIcon className="h-4 w-4" />
              </PictureButton>
              <PictureButton
                label={t('projects.images.later', { number: i + 1 })}
                onClick={() => onChange(move(value, i, i + 1))}
                disabled={i === value.length - 1}
              >
                <ChevronRightIcon className="h-4 w-4" />
              </PictureButton>
              <PictureButton
                label={t('projects.images.remove', { number: i + 1 })}
                className="text-rose-600 dark:text-rose-400"
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                <TrashIcon className="h-4 w-4" />
              </PictureButton>
            </div>
          </li>
        ))}
        {Array.from({ length: uploading }, (_, i) => (
          <li
            key={`uploading-${i}`}
            className="flex aspect-[4/3] animate-pulse items-center justify-center rounded-xl bg-slate-100 text-xs text-slate-500 dark:bg-slate-800 dark:text-slate-400"
          >
            {t('projects.images.uploading')}
          </li>
        ))}
        {!full && (
          <li>
            <input
              id={inputId}
              type="file"
              accept={IMAGE_TYPES.join(',')}
              multiple
              onChange={(event) => void onFiles(event)}
              disabled={uploading > 0}
              aria-describedby={[shown ? problemId : null, hintId].filter(Boolean).join(' ')}
              aria-invalid={shown ? true : undefined}
              className="peer sr-only"
            />
            <label
              htmlFor={inputId}
              className={cn(
                'flex aspect-[4/3] cursor-pointer flex-col items-center justify-center gap-1.5 rounded-xl border-2 border-dashed text-center text-sm transition-colors',
                'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-emerald-500',
                shown
                  ? 'border-rose-400 text-rose-600 dark:border-rose-400/70 dark:text-rose-400'
                  : 'border-slate-300 text-slate-500 hover:border-emerald-400 hover:text-emerald-600 dark:border-slate-700 dark:text-slate-400 dark:hover:border-emerald-500/60 dark:hover:text-emerald-400',
                uploading > 0 && 'pointer-events-none opacity-60',
              )}
            >
              <UploadIcon className="h-6 w-6" />
              <span className="font-medium">{t('projects.images.upload')}</span>
            </label>
          </li>
        )}
      </ul>
      <p id={hintId} className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        {t('projects.images.hint')}
      </p>
      {shown && (
        <p id={problemId} role="alert" className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">
          {shown}
        </p>
      )}
    </div>
  );
}
