import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { PlusIcon } from 'lucide-react';
import { Screen } from '@/components/ui/screen';
import { AdminProjectsList } from '@/features/admin-projects/components/admin-projects-list';

export default function AdminProjectsRoute() {
  return (
    <Screen
      title="Manage Projects"
      description="Every project members can invest in: add, edit or remove them."
      actions={
        <Link to={paths.adminProjectAdd.getHref()} className={buttonClasses()}>
          <PlusIcon className="h-4 w-4" />
          Add Project
        </Link>
      }
    >
      <AdminProjectsList />
    </Screen>
  );
}
