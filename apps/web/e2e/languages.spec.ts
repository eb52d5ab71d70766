import { expect, test, type Page } from './support/test';
import { waitForMail } from './support/mailbox';
import { fillRegisterForm, newMember } from './support/members';

/**
 * The product in the visitor's language (issue 35), in a Spanish browser: `locale` sets navigator.language and the
 * Accept-Language of every request, as a browser set to Spanish does. The drawn pages arrive in Spanish (the server
 * picks them by Accept-Language, apps/api/src/plugins/web.ts), the language menu switches at once and is remembered,
 * and a sign-up is made and verified in Spanish. The journeys' fixture fails the test on any console error (a failed
 * hydration is React error #418 there).
 */
test.use({ locale: 'es-ES' });

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const storedLanguage = (page: Page) => page.evaluate(() => localStorage.getItem('lang'));

test.describe('in Spanish', () => {
  test('the landing page paints in Spanish, and the menu switches to French at once and for the next visit', async ({ page }) => {
    const response = await page.goto('/', { waitUntil: 'commit' });
    // The first paint is the drawn Spanish page: its markup, before any script has run.
    const drawn = (await response!.text()) ?? '';
    expect(drawn).toContain('<html lang="es"');
    expect(drawn).toContain('Sea propietario de una parte de inmuebles de primer nivel');
    expect(response!.headers().vary).toMatch(/Accept-Language, Cookie/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Sea propietario de una parte de inmuebles de primer nivel');
    await expect(page.getByRole('link', { name: 'Registrarse' })).toBeVisible();

    // Chosen in the menu, on the drawn page, without waiting for the app.
    const menu = page.getByRole('combobox', { name: /Language/ });
    await expect(menu).toHaveAccessibleName('Idioma (Language)');
    await menu.selectOption('fr');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Devenez propriétaire d’une part d’immobilier haut de gamme');
    await expect(page.getByRole('combobox', { name: /Language/ })).toHaveAccessibleName('Langue (Language)');
    expect(await htmlLang(page)).toBe('fr');
    expect(await storedLanguage(page)).toBe('fr');
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'lang')?.value).toBe('fr');

    // The next visit: the server sends the French drawn page (the cookie), which React adopts as it is.
    const again = await page.reload({ waitUntil: 'commit' });
    expect(await again!.text()).toContain('<html lang="fr"');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Devenez propriétaire');
    await page.getByRole('button', { name: 'Formules d’investissement' }).first().hover();
    await expect.poll(() => page.evaluate(() => (window as { __appReady?: boolean }).__appReady === true)).toBe(true);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Devenez propriétaire');
    expect(await htmlLang(page)).toBe('fr');
    await expect(page.getByRole('region', { name: /Choisissez l’adhésion/ }).getByText(/^1\s200\s\$US$/).first()).toBeVisible();

    // Without the cookie the server sends the Spanish page again (Accept-Language); the browser remembers French, so
    // the app draws the page in French instead of adopting the Spanish one: no failed hydration, French at once.
    await page.context().clearCookies();
    const spanish = await page.reload({ waitUntil: 'commit' });
    expect(await spanish!.text()).toContain('<html lang="es"');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Devenez propriétaire');
    expect(await htmlLang(page)).toBe('fr');
  });

  test('on a phone, the language is in the menu panel, and the page fits @mobile', async ({ page }) => {
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await page.getByRole('combobox', { name: 'Idioma (Language)' }).selectOption('fr');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Devenez propriétaire');
    expect(await storedLanguage(page)).toBe('fr');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const table = page.getByRole('region', { name: 'Revenus par formule, en dollars américains' });
    expect(await table.evaluate((region) => region.scrollWidth <= region.clientWidth)).toBe(true);
  });

  test('the sign-in page is drawn in Spanish and its legal texts say that the English version prevails', async ({ page }) => {
    const response = await page.goto('/login', { waitUntil: 'commit' });
    expect(await response!.text()).toContain('<html lang="es"');
    await expect(page.getByRole('heading', { level: 1, name: 'Bienvenido de nuevo' })).toBeVisible();
    await expect(page.getByLabel('Correo electrónico')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();

    await page.goto('/');
    await page.getByRole('button', { name: 'Política de privacidad' }).click();
    const dialog = page.getByRole('dialog', { name: 'Política de privacidad' });
    await expect(dialog).toContainText('prevalece la versión en inglés');
    await expect(dialog).toContainText('su descarga funciona durante 7 días');
  });

  test('signs up in Spanish, verifies the e-mail with the mailed code, and reaches the dashboard in Spanish', async ({ page }) => {
    const member = newMember('es-signup');
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Cree su cuenta' })).toBeVisible();
    expect(await htmlLang(page)).toBe('es');

    // A form error from the contracts' schemas, in Spanish where the catalogue has it, never the key.
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByLabel('Nombre')).toHaveAttribute('aria-invalid', 'true');

    await fillRegisterForm(page, member, { language: 'es', phone: '+34 600 123 456' });
    await page.getByRole('button', { name: 'Crear cuenta' }).click();

    await expect(page.getByRole('heading', { name: 'Verifique su correo electrónico' })).toBeVisible();
    const boxes = page.getByRole('textbox', { name: /^Dígito \d de 6$/ });
    await expect(boxes).toHaveCount(6);
    // The code mail, the first and only mail of a new address, whatever language (and encoding) its subject is in:
    // the server writes it in the sign-up's language.
    const mail = await waitForMail(member.email, /./);
    const code = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(mail.body)?.[1];
    expect(code, 'the code in the mail').toBeTruthy();
    await boxes.first().click();
    await page.keyboard.type(code!);
    await page.getByRole('button', { name: 'Verificar' }).click();

    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
    expect(await htmlLang(page)).toBe('es');
    const navigation = page.getByRole('navigation', { name: 'Principal' });
    await expect(navigation.getByRole('link', { name: 'Panel' })).toBeVisible();
    await expect(navigation.getByRole('link', { name: 'Verificación KYC' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: /Language/ })).toHaveValue('es');
  });
});
