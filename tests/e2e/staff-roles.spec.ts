// Each role signs in through Admin Access (email, password, and the code for the roles that must
// give one) with JavaScript (the dialog the logo opens) and without (/?admin-access, then the code
// page), lands on its first section, and sees in the sidebar exactly the sections the permission
// table lets it open (app/utils/admin-sections.ts); a section it may not open answers the refusal page.
import type { Page } from "@playwright/test";
import { homeFor, sectionsFor } from "../../app/utils/admin-sections";
import type { Role } from "../../app/utils/staff-permissions";
import { ROLE_LABELS, ROLES, TWO_STEP_ROLES } from "../../app/utils/staff-permissions";
import { shot, uniqueTag } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";
import type { E2EStaff } from "../support/e2e/staff";
import { currentCode, ON_CLUSTER, seedStaff } from "../support/e2e/staff";

test.skip(ON_CLUSTER, "seeds its staff accounts into the SQLite database of npm test's server");

async function signIn(page: Page, staff: E2EStaff, javaScript: boolean) {
  if (javaScript) {
    await page.goto("/");
    const logo = page.getByRole("banner").getByRole("link", { name: "Sagwan Living home" });
    for (let i = 0; i < 5; i++) await logo.click();
  } else {
    await page.goto("/?admin-access");
  }
  const dialog = page.getByRole("dialog", { name: "Admin Access" });
  await dialog.getByLabel("Email").fill(staff.email);
  await dialog.getByPlaceholder("Enter admin password").fill(staff.password);
  await dialog.getByRole("button", { name: "Login" }).click();
  if (!staff.totpSecret) return;
  // The code: in the dialog with JavaScript, on its own page without.
  const where = javaScript ? dialog : page;
  if (!javaScript) await expect(page).toHaveURL(/\/admin\/login\/code$/);
  await where.getByLabel("Sign-in code").fill(await currentCode(staff.totpSecret));
  await where.getByRole("button", { name: "Verify" }).click();
}

for (const role of ROLES) {
  test(`${ROLE_LABELS[role]}: signs in and sees only the sections the role may open`, async ({
    page,
    javaScriptEnabled,
    consoleErrors,
  }, testInfo) => {
    const staff = await seedStaff(role, uniqueTag(testInfo), TWO_STEP_ROLES.includes(role as Role));
    await signIn(page, staff, javaScriptEnabled);

    const home = homeFor(role);
    await expect(page).toHaveURL(new RegExp(`${home.replace(/\//g, "\\/")}$`));
    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(nav.getByRole("link").first()).toBeVisible();
    const labels = (await nav.getByRole("link").allInnerTexts()).map((t) => t.trim()).filter((t) => t !== "My account");
    expect(labels).toEqual(sectionsFor(role).map((s) => s.label));
    await shot(page, testInfo, `staff-role-${role}`);

    // A section the role may not open: the refusal page in the admin frame, nothing else.
    if (role !== "owner") {
      const refused = await page.goto("/admin/staff");
      expect(refused?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
      dropExpectedStatusErrors(consoleErrors, 403);
    }
  });
}
