import { RegistrationForm } from './registration-form';

export default function RegisterProfessionalPage() {
  return <RegistrationForm type="professional" />;
}
