import { RegistrationForm } from './registration-form';

export default function RegisterPatientPage() {
  return <RegistrationForm type="patient" />;
}
