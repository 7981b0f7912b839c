import type { DashboardMessages } from './messages.js';

export const en: DashboardMessages = {
  locale: 'en',
  languageName: 'English',
  product: 'Payment Gateway',
  skipToContent: 'Skip to content',
  language: 'Language',
  mainNavigation: 'Dashboard',
  navHome: 'Get started',
  navAccount: 'Account',
  navSoon: {
    api_keys: 'API keys',
    domains: 'Domains',
    processors: 'Processors',
    connect_tokens: 'Connect tokens',
    team: 'Team',
    audit_log: 'Audit log',
  },
  soon: 'soon',
  signedInAs: (email) => `Signed in as ${email}`,
  signOut: 'Sign out',

  signUpTitle: 'Create your account',
  signUpIntro: 'Take test payments in a minute; go live once your business is verified.',
  businessName: 'Business name',
  email: 'Email',
  password: 'Password',
  passwordHint: 'At least 10 characters, and not your email address.',
  createAccount: 'Create account',
  haveAccount: 'Already have an account? Sign in',
  signInTitle: 'Sign in',
  signIn: 'Sign in',
  noAccount: 'New here? Create an account',
  forgotPassword: 'Forgot your password?',
  wrongCredentials: 'The email or the password is wrong.',
  lockedOut: (minutes) =>
    `Too many failed sign-ins. For your safety, signing in is paused for ${minutes} minutes. You can reset your password meanwhile.`,
  checkEmailTitle: 'Check your email',
  checkEmailText: (email) =>
    `We sent a message to ${email}. Open the link in it to confirm your address, then sign in. If the address already has an account, the message tells you how to sign in.`,
  unverifiedText: (email) =>
    `Your address is not confirmed yet. We sent a new link to ${email}: open it, then sign in.`,
  confirmEmailTitle: 'Confirm your email address',
  confirmEmailText: 'Press the button to confirm this address for your dashboard account.',
  confirmEmail: 'Confirm email address',
  linkInvalidTitle: 'This link no longer works',
  linkInvalidText: 'It was already used, or it expired. Ask for a new one by signing in or resetting your password.',
  emailConfirmed: 'Your email address is confirmed. Sign in to continue.',
  emailChanged: 'Your new email address is confirmed.',
  emailTaken: 'This address now belongs to another account.',
  signedOut: 'You are signed out.',
  sessionEnded: 'Your session ended. Sign in again.',

  resetTitle: 'Reset your password',
  resetIntro: 'Enter the email of your account; we will send you a link to choose a new password.',
  sendResetLink: 'Send reset link',
  resetSentText: 'If an account exists for this address, we sent it a link. It works for one hour.',
  newPasswordTitle: 'Choose a new password',
  newPassword: 'New password',
  setPassword: 'Set password',
  passwordReset: 'Your password was changed and every session was signed out. Sign in with the new password.',

  accountTitle: 'Your account',
  changeEmailTitle: 'Email address',
  newEmail: 'New email address',
  currentPassword: 'Current password',
  changeEmail: 'Change email',
  changeEmailSent: (email) => `We sent a link to ${email}. The change takes effect when you open it.`,
  changePasswordTitle: 'Password',
  changePassword: 'Change password',
  passwordChanged: 'Your password was changed; your other sessions were signed out.',

  homeTitle: 'Get started',
  testKeyTitle: 'Your test key',
  testKeyOnce: 'Copy it now: it is shown only this once. Keep it on your server, never in a web page.',
  tryItTitle: 'Create a test payment',
  tryItText: 'Run this in a terminal. The answer is the payment, with the checkout_url to send a buyer to.',
  keyPlaceholderText: 'Put your test key in place of sk_test_… (it was shown once, on your first visit).',
  checklistTitle: 'Your way to live payments',
  checklist: {
    test_payment: 'First test payment',
    domain_added: 'Website domain added',
    domain_verified: 'Domain verified',
    processor_enabled: 'Payment processor enabled',
    business_verified: 'Business verified',
    live_key: 'Live key created',
  },
  done: 'done',
  notYet: 'to do',

  problems: {
    required: 'Fill this in.',
    invalid_email: 'This is not an email address.',
    too_long: 'This is too long.',
    too_short: 'Use at least 10 characters.',
    is_email: 'Do not use your email address as the password.',
    wrong_password: 'This is not your current password.',
    email_taken: 'This address belongs to another account.',
  },
  formExpiredTitle: 'This form has expired',
  formExpiredText: 'For your safety the form was not sent. Go back, reload the page and try again.',
  notFoundTitle: 'Page not found',
  notFoundText: 'There is no such page in the dashboard.',
  errorSummary: 'Please correct the fields marked below.',

  mail: {
    verify_email: {
      subject: 'Confirm your email address',
      text: ({ link }) =>
        `Hello,\n\nConfirm the email address of your payment gateway account by opening this link (it works for 24 hours):\n\n${link}\n\nIf you did not sign up, ignore this message.\n`,
    },
    change_email: {
      subject: 'Confirm your new email address',
      text: ({ link }) =>
        `Hello,\n\nYou asked to use this address for your payment gateway account. Confirm it by opening this link (it works for 24 hours):\n\n${link}\n\nIf you did not ask for it, ignore this message.\n`,
    },
    reset_password: {
      subject: 'Reset your password',
      text: ({ link }) =>
        `Hello,\n\nChoose a new password for your payment gateway account with this link (it works for one hour, once):\n\n${link}\n\nIf you did not ask for it, ignore this message: your password stays as it is.\n`,
    },
    already_registered: {
      subject: 'Someone tried to sign up with your address',
      text: ({ signIn, reset }) =>
        `Hello,\n\nSomeone (perhaps you) tried to create a payment gateway account with this address, which already has one.\n\nSign in: ${signIn}\nForgot your password? ${reset}\n\nIf it was not you, nothing changed and you need to do nothing.\n`,
    },
  },
};
