import type { ComponentType } from 'react';
import { renderScreen, type RenderScreenOptions } from './render-screen';
import AppSettingsPage from '../features/admin/app-settings-page';
import UserDetailPage from '../features/admin/user-detail-page';
import LoginPage from '../features/auth/login-page';
import BiometricsPage from '../features/biometrics/biometrics-page';
import AcceptCguPage from '../features/consent/accept-cgu-page';
import DashboardPage from '../features/dashboard/dashboard-page';
import DevicesPage from '../features/devices/devices-page';
import ActivityPage from '../features/self-service/activity-page';
import PlatformAccessPage from '../features/self-service/platform-access-page';
import SessionsPage from '../features/self-service/sessions-page';
import AccessibilityPage from '../features/legal/accessibility-page';
import ContactPage from '../features/legal/contact-page';
import LegalNoticePage from '../features/legal/legal-notice-page';
import PrivacyPage from '../features/legal/privacy-page';
import AccountLockedPage from '../features/lock/account-locked-page';
import LockAccountPage from '../features/lock/lock-account-page';
import MfaPage from '../features/mfa/mfa-page';
import GoodbyePage from '../features/my-data/goodbye-page';
import OAuthErrorPage from '../features/oauth-error/oauth-error-page';
import FirstLoginPage from '../features/password/first-login-page';
import ForgotPasswordPage from '../features/password/forgot-password-page';
import ForgotPasswordSuccessPage from '../features/password/forgot-password-success-page';
import PasswordRenewalPage from '../features/password/password-renewal-page';
import PasswordRenewalSuccessPage from '../features/password/password-renewal-success-page';
import ProfilePage from '../features/profile/profile-page';
import ProfileUpdatePage from '../features/profile/profile-update-page';
import RegisterPage from '../features/registration/register-page';
import RegisterPatientPage from '../features/registration/register-patient-page';
import RegisterProfessionalPage from '../features/registration/register-professional-page';
import RegisterSuccessPage from '../features/registration/register-success-page';
import ServicesPage from '../features/services/services-page';
import StepUpPage from '../features/step-up/step-up-page';
import VerifyEmailPage from '../features/verification/verify-email-page';
import VerifyMobilePhonePage from '../features/verification/verify-mobile-phone-page';

/**
 * The page component of every screen of the route table, imported eagerly: tests render one
 * screen without the lazy route loading of the whole application (routes.test.tsx checks that
 * each lazy route loads this very component).
 */
export const SCREEN_COMPONENTS: Readonly<Record<string, ComponentType>> = {
  '/': DashboardPage,
  '/app-settings': AppSettingsPage,
  '/app-settings/users/:userId': UserDetailPage,
  '/services': ServicesPage,
  '/profile': ProfilePage,
  '/devices': DevicesPage,
  '/sessions': SessionsPage,
  '/activity': ActivityPage,
  '/platform-access': PlatformAccessPage,
  '/profile/update': ProfileUpdatePage,
  '/security/login': LoginPage,
  '/security/register': RegisterPage,
  '/security/register/professional': RegisterProfessionalPage,
  '/security/register/patient': RegisterPatientPage,
  '/security/register/success': RegisterSuccessPage,
  '/security/password-renewal': PasswordRenewalPage,
  '/security/password-renewal/success': PasswordRenewalSuccessPage,
  '/security/verify-email': VerifyEmailPage,
  '/security/verify-mobile-phone': VerifyMobilePhonePage,
  '/security/mfa': MfaPage,
  '/security/forgot-password': ForgotPasswordPage,
  '/security/forgot-password/success': ForgotPasswordSuccessPage,
  '/security/accept-cgu': AcceptCguPage,
  '/security/first-login': FirstLoginPage,
  '/security/biometrics': BiometricsPage,
  '/security/step-up': StepUpPage,
  '/security/lock-account': LockAccountPage,
  '/security/account-locked': AccountLockedPage,
  '/legal-notice': LegalNoticePage,
  '/privacy': PrivacyPage,
  '/accessibility': AccessibilityPage,
  '/contact': ContactPage,
  '/security/goodbye': GoodbyePage,
  '/oauth-error': OAuthErrorPage,
};

/** Renders the screen at `options.path` alone (see renderScreen), its page found by its path. */
export function renderScreenAt(options: RenderScreenOptions) {
  const Screen = SCREEN_COMPONENTS[new URL(options.path, 'http://localhost').pathname];
  if (!Screen) throw new Error(`no screen at ${options.path}`);
  return renderScreen(Screen, options);
}
