// Dark is the default; the choice is remembered under localStorage "theme" (spec section 4).
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
