import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '@/testing/builders';
import { renderApp, signIn, speaking } from '@/testing/test-utils';

const harbour = buildProject();

describe('projects in Spanish', { timeout: 20_000 }, () => {
  speaking('es');

  it('shows the catalogue’s filters and cards in Spanish, with the language’s percentages', async () => {
    signIn(buildUser(), { 'GET /projects': () => ({ body: [harbour] }) });
    renderApp('/projects');

    const card = within(await screen.findByRole('article', { name: 'Harbour View Residences' }, { timeout: 5000 }));
    expect(card.getByText('Residencial')).toBeInTheDocument();
    expect(card.getByText('Objetivo')).toBeInTheDocument();
    expect(card.getByText('ROI').nextElementSibling).toHaveTextContent(/^8,5\s%$/);
    expect(card.getByText('40 % financiado')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Buscar proyectos' })).toHaveAttribute('placeholder', 'Buscar proyectos...');
    expect(within(screen.getByLabelText('Filtrar por tipo')).getByRole('option', { name: 'Todos los tipos' })).toBeInTheDocument();
  });

  it('shows a project’s page and its investment box in Spanish', async () => {
    signIn(buildUser({ kycStatus: 'not_started' }), { [`GET /projects/${harbour._id}`]: () => ({ body: harbour }) });
    renderApp(`/projects/${harbour._id}`);

    expect(await screen.findByRole('heading', { level: 2, name: 'Invertir en este proyecto' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getAllByText('Volver a los proyectos').length).toBeGreaterThan(0);
    expect(screen.getByText('Importe de la inversión (USD)')).toBeInTheDocument();
    expect(screen.getByText('Verificación necesaria')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Resumen' })).toBeInTheDocument();
    expect(screen.getAllByText('Inversión mínima').length).toBeGreaterThan(0);
  });
});
