import { useDeferredValue } from 'react';
import { DASHBOARD_PROJECTS } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { ArrowRightIcon } from 'lucide-react';
import { TextLink } from '@/components/ui/text-link';
import { useFeaturedProjects } from '../api/get-projects';
import { useLogError } from '@/lib/use-log-error';
import { useT } from '@/lib/i18n';
import { ProjectCard, ProjectCardSkeleton } from './project-card';

// grid-cols-1 (minmax(0, 1fr)) rather than the implicit column, so a long title truncates instead of widening the page.
const grid = 'grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3';

/**
 * The dashboard's first projects of the catalogue (docs/product.md §2.5 Member screens, §5.11 Projection: at most 3), with a way to all of
 * them. A failure is only logged (docs/product.md §2.5 Member screens); then, as with no projects at all, the section is left out.
 */
export function FeaturedProjects() {
  // Drawn as a transition when the answer arrives (see SummaryCards).
  const projects = useDeferredValue(useFeaturedProjects());
  useLogError(projects.error, 'projects');
  const { t } = useT('projects');

  if (projects.isError || (projects.data && projects.data.length === 0)) return null;

  return (
    <section aria-labelledby="featured-projects-title">
      <div className="flex items-center justify-between gap-3">
        <h2 id="featured-projects-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          {t('featured.title')}
        </h2>
        <TextLink to={paths.projects.getHref()} aria-label={t('featured.viewAllLabel')} className="inline-flex items-center gap-1 text-sm">
          {t('featured.viewAll')}
          <ArrowRightIcon className="h-4 w-4" />
        </TextLink>
      </div>
      {projects.data ? (
        <ul className={`mt-4 ${grid}`}>
          {projects.data.map((project) => (
            <li key={project._id}>
              <ProjectCard project={project} compact />
            </li>
          ))}
        </ul>
      ) : (
        <div role="status" aria-label={t('featured.loading')} className={`mt-4 ${grid}`}>
          {Array.from({ length: DASHBOARD_PROJECTS }, (_, i) => (
            <ProjectCardSkeleton key={i} compact />
          ))}
        </div>
      )}
    </section>
  );
}
