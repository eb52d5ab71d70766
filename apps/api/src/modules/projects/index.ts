/** What other modules may use of projects. */
export { checkProjectLedger } from './invest.service';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes and the sample projects the server seeds.
export { projectRoutes } from './projects.routes';
export { seedSampleProjects } from './seed';
