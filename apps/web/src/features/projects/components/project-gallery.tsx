import { useRef, useState, type KeyboardEvent } from 'react';
import { projectImageSrc } from '@terrafund/contracts';
import { ChevronLeftIcon, ChevronRightIcon, ImageIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';

type ProjectGalleryProps = { title: string; images: readonly string[] };

const arrowButton =
  'absolute top-1/2 flex h-10 w-10 -translate-y-1/2 items-center justify-center rounded-full bg-slate-950/55 text-white backdrop-blur-sm transition hover:bg-slate-950/75 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

/**
 * The project's pictures (docs/product.md §2.5 Member screens): one large at full size, and every picture as a thumbnail that
 * shows it large. The thumbnails are buttons (Tab, Enter, Space) and the arrow keys move between them.
 */
export function ProjectGallery({ title, images }: ProjectGalleryProps) {
  const [selected, setSelected] = useState(0);
  const { t } = useT('projects');
  const thumbs = useRef<(HTMLButtonElement | null)[]>([]);
  const count = images.length;
  // A refetch may bring fewer pictures than the one being shown.
  const index = Math.min(selected, Math.max(0, count - 1));
  const current = images[index];

  if (!current) {
    return (
      <div className="flex aspect-[16/9] w-full flex-col items-center justify-center gap-2 rounded-2xl bg-slate-100 text-slate-400 dark:bg-slate-800/60 dark:text-slate-500">
        <ImageIcon className="h-12 w-12" />
        <span className="text-sm">{t('gallery.empty')}</span>
      </div>
    );
  }

  const show = (next: number, focus = false) => {
    const wrapped = (next + count) % count;
    setSelected(wrapped);
    if (focus) thumbs.current[wrapped]?.focus();
  };

  const onThumbKeyDown = (event: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const moves: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: count - 1 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    show(next, true);
  };

  return (
    <div className="space-y-3">
      <div className="relative overflow-hidden rounded-2xl bg-slate-100 dark:bg-slate-800">
        <img
          key={current}
          src={projectImageSrc(current, 'full')}
          alt={count > 1 ? t('gallery.picture', { title, index: index + 1, count }) : title}
          decoding="async"
          className="aspect-[16/9] w-full object-cover"
        />
        {count > 1 && (
          <>
            <button type="button" onClick={() => show(index - 1)} aria-label={t('gallery.previous')} className={cn(arrowButton, 'left-3')}>
              <ChevronLeftIcon className="h-5 w-5" />
            </button>
            <button type="button" onClick={() => show(index + 1)} aria-label={t('gallery.next')} className={cn(arrowButton, 'right-3')}>
              <ChevronRightIcon className="h-5 w-5" />
            </button>
          </>
        )}
      </div>

      {count > 1 && (
        <ul aria-label={t('gallery.pictures')} className="-m-1 flex gap-2 overflow-x-auto p-1">
          {images.map((image, i) => (
            <li key={`${image}-${i}`} className="shrink-0">
              <button
                ref={(element) => {
                  thumbs.current[i] = element;
                }}
                type="button"
                onClick={() => show(i)}
                onKeyDown={(event) => onThumbKeyDown(event, i)}
                aria-label={t('gallery.show', { index: i + 1, count })}
                aria-pressed={i === index}
                className={cn(
                  'block h-16 w-24 overflow-hidden rounded-lg ring-2 ring-offset-2 ring-offset-white transition sm:h-20 sm:w-28 dark:ring-offset-slate-950',
                  'focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-emerald-500',
                  i === index ? 'ring-emerald-500' : 'opacity-75 ring-transparent hover:opacity-100',
                )}
              >
                <img src={projectImageSrc(image, 'thumb')} alt="" loading="lazy" decoding="async" className="h-full w-full object-cover" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
