// Progressive enhancement only: every form works without this file.

// Copy buttons: `data-copy` names the input whose value is copied; the outcome is said in text.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.copyStatus);
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.value);
      status.textContent = 'Copied to the clipboard.';
    } catch {
      source.select();
      status.textContent = 'Copy failed: the text is selected, press Ctrl+C.';
    }
  });
}

// Expanders: a button with aria-expanded shows or hides the region named by aria-controls.
// Without script every region shows; with it, each starts as its button's aria-expanded says.
for (const button of document.querySelectorAll('button[aria-controls][aria-expanded]')) {
  const region = document.getElementById(button.getAttribute('aria-controls'));
  button.hidden = false;
  region.hidden = button.getAttribute('aria-expanded') !== 'true';
  button.addEventListener('click', () => {
    const expanded = button.getAttribute('aria-expanded') === 'true';
    button.setAttribute('aria-expanded', String(!expanded));
    region.hidden = expanded;
  });
}
