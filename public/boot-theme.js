// Applies the kept theme before the first paint (no flash of the wrong theme). A file, not an
// inline script: the Content-Security-Policy allows scripts from the server's own origin only.
try {
  var t = localStorage.getItem('decisio.theme');
  if (t === 'dark' || (!t && window.matchMedia('(prefers-color-scheme: dark)').matches)) document.documentElement.classList.add('dc-boot-dark');
} catch (e) {}
