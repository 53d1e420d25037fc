// The web app's small enhancements; every page works without them. Served from this origin (CSP 'self').
(() => {
  const root = document.documentElement;
  root.classList.add("js");

  // The navigation folds behind the Menu button on a phone.
  const menu = document.querySelector(".top .menu");
  if (menu) {
    menu.hidden = false;
    menu.addEventListener("click", () => {
      const open = root.classList.toggle("nav-open");
      menu.setAttribute("aria-expanded", String(open));
    });
  }

  // A destructive or outward action asks first (form data-confirm).
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  // Copy buttons: data-copy names the element whose text to copy.
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy);
      if (!source) return;
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = "Copied";
    });
  }

  // Boards: dragging a card to a column submits the card's own move form.
  let dragged = null;
  for (const card of document.querySelectorAll(".board .card-item[draggable]")) {
    card.addEventListener("dragstart", (event) => {
      dragged = card;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", card.dataset.id);
    });
  }
  for (const lane of document.querySelectorAll(".board .lane")) {
    lane.addEventListener("dragover", (event) => {
      if (!dragged) return;
      event.preventDefault();
      lane.classList.add("over");
    });
    lane.addEventListener("dragleave", () => lane.classList.remove("over"));
    lane.addEventListener("drop", (event) => {
      event.preventDefault();
      lane.classList.remove("over");
      const form = dragged?.querySelector("form.move");
      if (!form || dragged.closest(".lane") === lane) return;
      form.querySelector("select[name=to]").value = lane.dataset.lane;
      form.requestSubmit();
    });
  }

  // The invoice editor: add and remove line rows; totals follow what is typed.
  const editor = document.querySelector("[data-invoice-editor]");
  if (editor) {
    const body = editor.querySelector("tbody");
    const template = editor.querySelector("template");
    const renumber = () => {
      [...body.rows].forEach((row, i) => {
        for (const input of row.querySelectorAll("[data-name]")) {
          input.name = `items[${i}][${input.dataset.name}]`;
          input.id = `items-${i}-${input.dataset.name}`;
        }
        for (const label of row.querySelectorAll("label[data-for]")) label.htmlFor = `items-${i}-${label.dataset.for}`;
      });
    };
    const digits = Number(editor.dataset.digits ?? 2);
    const currency = editor.dataset.currency ?? "";
    const addLine = editor.querySelector("[data-add-line]");
    if (addLine) addLine.hidden = false;
    const total = () => {
      let subtotal = 0;
      let tax = 0;
      for (const row of body.rows) {
        const quantity = Number(row.querySelector("[data-name=quantity]")?.value || 0);
        const unit = Number(row.querySelector("[data-name=unit_amount]")?.value || 0);
        const rate = Number(row.querySelector("[data-name=tax_rate]")?.value || 0);
        const amount = quantity * unit;
        subtotal += amount;
        tax += (amount * rate) / 100;
        const cell = row.querySelector("[data-amount]");
        if (cell) cell.textContent = Number.isFinite(amount) ? amount.toFixed(digits) : "";
      }
      const show = (name, value) => {
        const cell = editor.querySelector(`[data-total=${name}]`);
        if (cell)
          cell.textContent = Number.isFinite(value)
            ? `${value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`
            : "";
      };
      show("subtotal", subtotal);
      show("tax", tax);
      show("total", subtotal + tax);
    };
    editor.addEventListener("input", total);
    addLine?.addEventListener("click", () => {
      body.append(template.content.cloneNode(true));
      renumber();
      body.rows[body.rows.length - 1].querySelector("input")?.focus();
    });
    editor.addEventListener("click", (event) => {
      const remove = event.target.closest?.("[data-remove-line]");
      if (!remove || body.rows.length <= 1) return;
      remove.closest("tr").remove();
      renumber();
      total();
    });
    total();
  }
})();
