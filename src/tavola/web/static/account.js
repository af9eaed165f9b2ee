// The account in the page's header: who is logged in, with a link to their page and a way out; else
// a small form to log in or sign up. The session itself is an HttpOnly cookie the page never reads.

import { api, element } from "./api.js";
import { translate } from "./i18n.js";

let known;

// The account logged in ({name, bot, since}) or null, asked of the server once per page.
export async function currentAccount() {
  if (known === undefined) {
    try {
      known = (await api("/api/session")).account;
    } catch {
      known = null;
    }
  }
  return known;
}

function loginForm(holder) {
  const name = element("input", { name: "name", maxlength: 40, required: true, autocomplete: "username", "data-i18n-placeholder": "account.name" });
  const password = element("input", { name: "password", type: "password", required: true, minlength: 8, autocomplete: "current-password", "data-i18n-placeholder": "account.password" });
  const error = element("p", { class: "error" });
  const send = async (path) => {
    error.textContent = "";
    try {
      const { account } = await api(path, { method: "POST", body: { name: name.value.trim(), password: password.value } });
      known = account;
      location.reload();
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  const form = element(
    "form",
    {
      id: "login",
      class: "account-form panel",
      onsubmit: (event) => {
        event.preventDefault();
        send(event.submitter?.value === "sign-up" ? "/api/accounts" : "/api/session");
      },
    },
    name,
    password,
    element("button", { type: "submit", value: "log-in", "data-i18n": "account.log_in" }),
    element("button", { type: "submit", value: "sign-up", class: "secondary", "data-i18n": "account.sign_up" }),
    error,
  );
  form.hidden = true;
  const toggle = element("button", { type: "button", class: "small", id: "account-toggle", "data-i18n": "account.log_in_or_sign_up", onclick: () => {
    form.hidden = !form.hidden;
    if (!form.hidden) name.focus();
  } });
  holder.replaceChildren(toggle, form);
}

// Fill the header's account corner.
export async function showAccount(holder) {
  const account = await currentAccount();
  if (account === null) {
    loginForm(holder);
  } else {
    const out = element("button", { type: "button", class: "small", id: "log-out", "data-i18n": "account.log_out", onclick: async () => {
      await api("/api/session", { method: "DELETE" });
      known = null;
      location.reload();
    } });
    holder.replaceChildren(
      element("a", { href: `/players/${encodeURIComponent(account.name)}`, class: "account-name" }, account.name),
      out,
    );
  }
  translate(holder);
}
