// Dark is the default; the choice is remembered under localStorage "theme" (docs/product.md §2.7 The session in the browser).
(function () {
  var theme = 'dark';
  try {
    theme = localStorage.getItem('theme') === 'light' ? 'light' : 'dark';
  } catch {
    // Storage can be blocked (private mode, strict settings): keep the default.
  }
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
})();
